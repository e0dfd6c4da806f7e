/** The HTML of the fake's confirmation page (`/checkout/{paymentId}`, each payment's `confirmation_url`). */
import { escapeHtml, fakePage } from '../fake-pages.js';
import { amountOf } from './amounts.js';
import { TEST_CARD } from './payment-methods.js';
import type { PaymentRecord } from './payment-object.js';
import type { ShopMethod } from './payment-request.js';

/** The page's buttons (`action` in the posted form). */
export const PAGE_ACTIONS = ['card', 'sbp', 'yoo_money', 'decline', 'leave'] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];

/** The payment method each pay button pays with. */
export const METHOD_OF: Partial<Record<PageAction, ShopMethod>> = { card: 'bank_card', sbp: 'sbp', yoo_money: 'yoo_money' };

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; background: #f2f3f5; }
  main { max-width: 27rem; margin: 0 auto; background: #fff; border: 1px solid #d9dce1; border-radius: 0.75rem; padding: 1.5rem; }
  h1 { font-size: 1.2rem; margin: 0 0 0.25rem; }
  .amount { font-size: 1.9rem; font-weight: 700; margin: 0.5rem 0 1rem; }
  dl { margin: 0 0 1rem; } dt { font-weight: 600; font-size: 0.9rem; } dd { margin: 0 0 0.5rem; word-break: break-all; }
  fieldset { border: 1px solid #d9dce1; border-radius: 0.5rem; margin: 0 0 0.75rem; padding: 0.75rem; }
  legend { font-weight: 600; padding: 0 0.25rem; }
  label { display: block; font-size: 0.9rem; margin: 0 0 0.5rem; }
  input { display: block; width: 100%; box-sizing: border-box; margin-top: 0.2rem; padding: 0.5rem; font: inherit; border: 1px solid #b9bec7; border-radius: 0.4rem; background: #f7f8fa; }
  button { display: block; width: 100%; margin: 0 0 0.6rem; padding: 0.75rem; border: 0; border-radius: 0.5rem; background: #7b3ff2; color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
  button.secondary { background: #e8eaee; color: #1a1a1a; }
  :focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  .note { background: #eef4ff; border-radius: 0.5rem; padding: 0.6rem 0.8rem; font-size: 0.9rem; }
  .state { font-weight: 600; }
`;

function layout(title: string, content: string): string {
  return fakePage({ title, style: STYLE, notice: '<strong>Test mode — fake YooKassa.</strong> This is not YooKassa, and no real money is charged.', content });
}

const money = (record: PaymentRecord): string => {
  const { value, currency } = amountOf(record.amount.minor, record.amount.currency);
  return `${value} ${currency}`;
};

const titleOf = (record: PaymentRecord): string => record.request.description ?? `Payment ${record.id}`;

function header(record: PaymentRecord, shopId: string): string {
  return `<h1>${escapeHtml(titleOf(record))}</h1>
<p class="amount">${escapeHtml(money(record))}</p>
<dl><dt>Shop</dt><dd>${escapeHtml(shopId)}</dd><dt>Payment</dt><dd>${escapeHtml(record.id)}</dd></dl>`;
}

function cardFields(year: number): string {
  return `<fieldset><legend>Bank card</legend>
<label>Card number <input name="card_number" value="${TEST_CARD.number}" readonly autocomplete="off" inputmode="numeric"></label>
<label>Expires <input name="card_expiry" value="${TEST_CARD.expiryMonth}/${String(year + 4).slice(-2)}" readonly autocomplete="off"></label>
<label>CVC <input name="card_csc" value="123" readonly autocomplete="off" inputmode="numeric"></label>
<button type="submit" name="action" value="card">Pay by card</button>
</fieldset>`;
}

/** A payment awaiting its customer: the methods it may be paid with (only the preset one, when there is one), Decline and Leave. */
export function confirmationPage(record: PaymentRecord, shopId: string, year: number, problem?: string): string {
  const preset = record.request.presetMethod;
  const offers = (method: ShopMethod): boolean => !preset || preset === method;
  const saveNote = record.request.savePaymentMethod
    ? `<p class="note">Shop ${escapeHtml(shopId)} will save the card or wallet you pay with and may charge it later without asking you again.</p>\n`
    : '';
  return layout(
    `Pay ${money(record)} — ${titleOf(record)}`,
    `${header(record, shopId)}
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>\n` : ''}${saveNote}<form method="post" action="/checkout/${encodeURIComponent(record.id)}">
${offers('bank_card') ? cardFields(year) : ''}
${offers('sbp') ? '<button type="submit" name="action" value="sbp">Pay with SBP</button>' : ''}
${offers('yoo_money') ? '<button type="submit" name="action" value="yoo_money">Pay with YooMoney</button>' : ''}
<button type="submit" name="action" value="decline" class="secondary">Decline (the bank refuses: insufficient funds)</button>
<button type="submit" name="action" value="leave" class="secondary">Leave without paying</button>
</form>`,
  );
}

function stateText(record: PaymentRecord): string {
  switch (record.status) {
    case 'succeeded':
      return 'This payment has been paid.';
    case 'waiting_for_capture':
      return 'This payment has been paid and is waiting for the shop to capture it.';
    case 'canceled':
      return `This payment was canceled (${record.cancellation?.reason ?? 'no reason given'}).`;
    case 'pending':
      return 'This payment needs nothing from you: the shop charges a saved method.';
  }
}

/** A payment there is nothing more to do with on this page: what it is, and the way back to the shop. */
export function statePage(record: PaymentRecord, shopId: string): string {
  const back = record.request.confirmation ? `<p><a href="${escapeHtml(record.request.confirmation.returnUrl)}">Return to the shop</a></p>` : '';
  return layout(`Payment ${record.status}`, `${header(record, shopId)}\n<p class="state" role="status">${escapeHtml(stateText(record))}</p>\n${back}`);
}

export function notFoundPage(): string {
  return layout('Payment not found', '<h1>Payment not found</h1>\n<p>Check the link, or start the payment again from the shop.</p>');
}
