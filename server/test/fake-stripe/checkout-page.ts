import { escapeHtml, fakePage } from '../fake-pages.js';

export { escapeHtml };
import { CARD, delayedMethodOf } from './payment-methods.js';
import type { CheckoutSessionObject } from './session-object.js';
import type { LineItemInput } from './session-params.js';

/** The payment method a customer picks on the fake checkout page. */
export type PagePaymentMethod = 'card' | 'delayed';

/** What the page offers: a test card when the session takes cards, a bank debit when it takes one. */
export function offeredMethods(session: CheckoutSessionObject): PagePaymentMethod[] {
  const offered: PagePaymentMethod[] = [];
  if (session.payment_method_types.includes(CARD)) offered.push('card');
  if (delayedMethodOf(session.payment_method_types) !== null) offered.push('delayed');
  return offered;
}

const METHOD_LABELS: Record<PagePaymentMethod, string> = {
  card: 'Test card (paid at once)',
  delayed: 'Bank debit (confirmed later)',
};

function methodChoice(session: CheckoutSessionObject): string {
  const radios = offeredMethods(session).map(
    (method, i) => `<label><input type="radio" name="method" value="${method}"${i === 0 ? ' checked' : ''}> ${METHOD_LABELS[method]}</label>`,
  );
  return `<fieldset>\n<legend>Payment method</legend>\n${radios.join('\n')}\n</fieldset>`;
}

/** `1299, 'usd'` → `$12.99` (en-US formatting; zero-decimal currencies such as JPY stay whole). */
export function formatAmount(amount: number, currency: string): string {
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1f36; background: #f6f8fa; }
  main { max-width: 28rem; margin: 0 auto; background: #fff; border: 1px solid #d8dee4; border-radius: 0.75rem; padding: 1.5rem; }
  h1 { font-size: 1.25rem; margin: 0 0 0.25rem; }
  .description { margin: 0 0 0.5rem; color: #4f566b; }
  .amount { font-size: 2rem; font-weight: 700; margin: 0.5rem 0 1rem; }
  ul.items { padding-left: 1.2rem; margin: 0 0 0.5rem; }
  dl { margin: 0 0 1rem; } dt { font-weight: 600; font-size: 0.9rem; } dd { margin: 0 0 0.5rem; }
  fieldset { border: 1px solid #d8dee4; border-radius: 0.5rem; margin: 0 0 1rem; padding: 0.5rem 0.8rem; }
  legend { font-weight: 600; font-size: 0.9rem; padding: 0 0.3rem; }
  fieldset label { display: block; padding: 0.3rem 0; }
  label.field { display: block; font-weight: 600; font-size: 0.9rem; margin-bottom: 0.3rem; }
  input[type="email"], input[type="text"] { box-sizing: border-box; width: 100%; padding: 0.55rem; border: 1px solid #8792a2; border-radius: 0.4rem; font: inherit; margin-bottom: 1rem; }
  button { width: 100%; padding: 0.8rem; border: 0; border-radius: 0.5rem; background: #4f46e5; color: #fff; font: inherit; font-weight: 600; font-size: 1.05rem; cursor: pointer; }
  button:hover { background: #4338ca; }
  :focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  .cancel { display: inline-block; margin-top: 1rem; color: #3c4257; }
`;

export function layout(title: string, content: string): string {
  return fakePage({ title, style: STYLE, notice: '<strong>Test mode — fake Stripe checkout.</strong> No real payment is made.', content });
}

function summary(session: CheckoutSessionObject, lineItems: LineItemInput[]): string {
  const currency = session.currency ?? 'usd';
  const [first] = lineItems;
  if (lineItems.length === 1 && first && first.quantity === 1) {
    const description = first.description ? `<p class="description">${escapeHtml(first.description)}</p>` : '';
    return `<h1>${escapeHtml(first.name)}</h1>\n${description}`;
  }
  const items = lineItems
    .map((item) => `<li>${escapeHtml(item.name)} × ${item.quantity} — ${formatAmount(item.unitAmount * item.quantity, currency)}</li>`)
    .join('\n');
  return `<h1>Your order</h1>\n<ul class="items">\n${items}\n</ul>`;
}

/** `custom_text[submit][message]`, shown above the pay button as Stripe does. */
function submitMessage(session: CheckoutSessionObject): string {
  const message = session.custom_text.submit?.message;
  return message ? `<p class="custom-text">${escapeHtml(message)}</p>` : '';
}

/** The checkout page of an open session: summary, amount, e-mail, payment method, "Pay $x.xx", "Cancel". */
export function checkoutPage(session: CheckoutSessionObject, lineItems: LineItemInput[], error?: string): string {
  const amount = formatAmount(session.amount_total ?? 0, session.currency ?? 'usd');
  const email = session.customer_email
    ? `<dl><dt>Email</dt><dd>${escapeHtml(session.customer_email)}</dd></dl>`
    : session.customer
      ? ''
      : `<label class="field" for="email">Email</label>\n<input id="email" name="email" type="email" autocomplete="email" required>`;
  const cancel = session.cancel_url ? `<a class="cancel" href="${escapeHtml(session.cancel_url)}">Cancel</a>` : '';
  const problem = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
  const discounted = session.total_details?.amount_discount ?? 0;
  const discount =
    discounted > 0
      ? `<p class="discount">Subtotal ${formatAmount(session.amount_subtotal ?? 0, session.currency ?? 'usd')} · Discount −${formatAmount(discounted, session.currency ?? 'usd')}</p>\n`
      : '';
  return layout(
    `Checkout — ${lineItems[0]?.name ?? 'Fake Stripe'}`,
    `${summary(session, lineItems)}
${discount}<p class="amount">${amount}</p>
${problem}
${submitMessage(session)}
<form method="post" action="/checkout/pay/${encodeURIComponent(session.id)}">
${email}
<label class="field" for="card">Card number</label>
<input id="card" name="card" type="text" inputmode="numeric" autocomplete="cc-number" value="4242 4242 4242 4242">
${methodChoice(session)}
<button type="submit">Pay ${amount}</button>
</form>
${cancel}`,
  );
}

/** What a customer sees on an expired session's page. */
export function expiredPage(session: CheckoutSessionObject): string {
  const back = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Return to the store</a></p>` : '';
  return layout('Checkout session expired', `<h1>This checkout session has expired</h1>\n${back}`);
}

/** An unknown session id. */
export function notFoundPage(): string {
  return layout('Checkout session not found', '<h1>Checkout session not found</h1>\n<p>Check the link, or start the checkout again from the store.</p>');
}
