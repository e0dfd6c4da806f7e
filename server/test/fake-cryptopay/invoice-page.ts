/** The HTML of the fake's invoice page (each invoice's `web_app_invoice_url`, `/invoices/<hash>`). */
import { escapeHtml, fakePage } from '../fake-pages.js';
import type { PaidButtonName } from './invoice-request.js';
import type { InvoiceRecord } from './invoices.js';
import { priceIn } from './payment.js';

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1c2430; background: #eef3f8; }
  main { max-width: 26rem; margin: 0 auto; background: #fff; border: 1px solid #cfd9e3; border-radius: 0.75rem; padding: 1.5rem; }
  h1 { font-size: 1.2rem; margin: 0 0 0.25rem; }
  .amount { font-size: 1.9rem; font-weight: 700; margin: 0.5rem 0 1rem; }
  dl { margin: 0 0 1rem; } dt { font-weight: 600; font-size: 0.9rem; } dd { margin: 0 0 0.5rem; overflow-wrap: anywhere; }
  form { margin: 0 0 0.6rem; }
  button, .button { display: block; box-sizing: border-box; width: 100%; padding: 0.75rem; border: 0; border-radius: 0.5rem; background: #0a6ebd;
    color: #fff; font: inherit; font-weight: 600; text-align: center; text-decoration: none; cursor: pointer; }
  button.secondary { background: #e4eaf0; color: #1c2430; }
  :focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
  .state { font-weight: 600; }
`;

function layout(title: string, content: string): string {
  return fakePage({
    title,
    style: STYLE,
    notice: '<strong>Test mode — fake Crypto Pay.</strong> This is not @CryptoBot: no real coins are sent.',
    content,
  });
}

/** "9.99 USD", "2.6 USDT". */
const priceOf = (record: InvoiceRecord): string => `${record.request.amount} ${record.request.fiat ?? record.request.asset}`;

const titleOf = (record: InvoiceRecord): string => record.request.description || `Invoice #${record.id}`;

const acceptedOf = (record: InvoiceRecord): string[] => record.request.acceptedAssets ?? [record.request.asset!];

function details(record: InvoiceRecord): string {
  const rows = [
    record.request.description ? `<dt>Description</dt><dd>${escapeHtml(record.request.description)}</dd>` : '',
    `<dt>Accepted assets</dt><dd>${escapeHtml(acceptedOf(record).join(', '))}</dd>`,
    record.expiresAt === null
      ? ''
      : `<dt>Expires</dt><dd><time datetime="${new Date(record.expiresAt).toISOString()}">${new Date(record.expiresAt).toUTCString()}</time></dd>`,
    `<dt>Invoice</dt><dd>#${record.id}</dd>`,
  ];
  return `<dl>${rows.join('')}</dl>`;
}

const form = (record: InvoiceRecord, fields: Record<string, string>, label: string, secondary = false): string =>
  `<form method="post" action="/invoices/${encodeURIComponent(record.hash)}">${Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('')}<button type="submit"${secondary ? ' class="secondary"' : ''}>${escapeHtml(label)}</button></form>`;

/** An active invoice: the price, what it is for, one Pay button per accepted asset, and Expire. */
export function activePage(record: InvoiceRecord, problem?: string): string {
  const payButtons = acceptedOf(record).map((asset) => form(record, { action: 'pay', asset }, `Pay ${priceIn(record.request, asset)} ${asset}`));
  return layout(
    `Pay ${priceOf(record)} — ${titleOf(record)}`,
    `<h1>${escapeHtml(titleOf(record))}</h1>
<p class="amount">${escapeHtml(priceOf(record))}</p>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>\n` : ''}${details(record)}
${payButtons.join('\n')}
${form(record, { action: 'expire' }, 'Expire', true)}`,
  );
}

/** The words on the button back to the merchant, as the payer would see them after paying. */
const PAID_BUTTON_TEXT: Record<PaidButtonName, string> = {
  callback: 'Return to the merchant',
  viewItem: 'View item',
  openChannel: 'Open',
  openBot: 'Open',
};

/** A paid invoice: "Paid", the hidden message, and the merchant's button when it has one. */
export function paidPage(record: InvoiceRecord): string {
  const { request, payment } = record;
  const message = request.hiddenMessage ? `<p>${escapeHtml(request.hiddenMessage)}</p>\n` : '';
  const back =
    request.paidBtnName && request.paidBtnUrl
      ? `<p><a class="button" href="${escapeHtml(request.paidBtnUrl)}">${PAID_BUTTON_TEXT[request.paidBtnName]}</a></p>`
      : '';
  return layout(
    `Paid — ${titleOf(record)}`,
    `<h1>${escapeHtml(titleOf(record))}</h1>
<p class="amount">${escapeHtml(priceOf(record))}</p>
<p class="state" role="status">Paid: ${escapeHtml(`${payment!.amount} ${payment!.asset}`)} received.</p>
${message}${back}`,
  );
}

export function expiredPage(record: InvoiceRecord): string {
  return layout(
    `Expired — ${titleOf(record)}`,
    `<h1>${escapeHtml(titleOf(record))}</h1>
<p class="amount">${escapeHtml(priceOf(record))}</p>
<p class="state" role="status">This invoice has expired: it can no longer be paid. Start the payment again from the merchant.</p>`,
  );
}

export function deletedPage(): string {
  return layout('Invoice deleted', '<h1>Invoice deleted</h1>\n<p class="state" role="status">The merchant deleted this invoice: it can no longer be paid.</p>');
}

export function notFoundPage(): string {
  return layout('Invoice not found', '<h1>Invoice not found</h1>\n<p>Check the link, or start the payment again from the merchant.</p>');
}
