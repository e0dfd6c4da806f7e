/** The HTML of the fake's invoice checkout page (`/i/{invoiceId}`). */
import { escapeHtml, fakePage } from '../fake-pages.js';

export { escapeHtml };
import { formatBtc, formatMinor } from './amounts.js';
import type { InvoiceRecord } from './invoices.js';

/** `999` USD → `9.99 USD`. */
const fiat = (invoice: InvoiceRecord, minor: number): string => `${formatMinor(minor, invoice.digits)} ${invoice.currency}`;

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1e2a33; background: #f5f7f8; }
  main { max-width: 26rem; margin: 0 auto; background: #fff; border: 1px solid #d5dde2; border-radius: 0.75rem; padding: 1.5rem; }
  h1 { font-size: 1.2rem; margin: 0 0 0.25rem; }
  .amount { font-size: 1.9rem; font-weight: 700; margin: 0.5rem 0 0.25rem; }
  .crypto { margin: 0 0 1rem; color: #44525c; }
  dl { margin: 0 0 1rem; } dt { font-weight: 600; font-size: 0.9rem; } dd { margin: 0 0 0.5rem; word-break: break-all; }
  form { margin: 0 0 0.6rem; }
  button { width: 100%; padding: 0.75rem; border: 0; border-radius: 0.5rem; background: #51b13e; color: #fff; font: inherit; font-weight: 600; cursor: pointer; }
  button.secondary { background: #e9eef1; color: #1e2a33; }
  :focus-visible { outline: 3px solid #1d4ed8; outline-offset: 2px; }
  .state { font-weight: 600; }
`;

function layout(title: string, content: string): string {
  return fakePage({ title, style: STYLE, notice: '<strong>Test mode — fake BTCPay Server.</strong> No real bitcoin is sent.', content });
}

const button = (invoiceId: string, action: string, label: string, secondary = false): string =>
  `<form method="post" action="/i/${encodeURIComponent(invoiceId)}"><input type="hidden" name="action" value="${action}"><button type="submit"${secondary ? ' class="secondary"' : ''}>${label}</button></form>`;

const itemOf = (invoice: InvoiceRecord): string => (typeof invoice.metadata.itemDesc === 'string' && invoice.metadata.itemDesc) || `Invoice ${invoice.id}`;

/** A New invoice: amount in fiat and BTC, the address, and the three buttons. */
export function invoicePage(invoice: InvoiceRecord, dueSats: number, paidMinor: number, problem?: string): string {
  const partly =
    invoice.additionalStatus === 'PaidPartial'
      ? `<p class="state">Partly paid: ${escapeHtml(fiat(invoice, paidMinor))} received, ${formatBtc(dueSats)} BTC still due.</p>`
      : '';
  return layout(
    `Pay ${fiat(invoice, invoice.price)} — ${itemOf(invoice)}`,
    `<h1>${escapeHtml(itemOf(invoice))}</h1>
<p class="amount">${escapeHtml(fiat(invoice, invoice.price))}</p>
<p class="crypto">${formatBtc(invoice.priceSats)} BTC</p>
${partly}${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>\n` : ''}<dl><dt>Send to</dt><dd>${escapeHtml(invoice.destination)}</dd><dt>Invoice</dt><dd>${escapeHtml(invoice.id)}</dd></dl>
${button(invoice.id, 'pay', 'Pay')}
${button(invoice.id, 'partial', 'Pay partially', true)}
${button(invoice.id, 'expire', 'Let it expire', true)}`,
  );
}

const STATE_TEXT: Record<string, string> = {
  Processing: 'Payment received: waiting for confirmations.',
  Settled: 'This invoice has been paid.',
  Expired: 'This invoice has expired.',
  Invalid: 'This invoice is invalid.',
};

/** Any other state: what it is, and the way back to the store when there is one. */
export function statePage(invoice: InvoiceRecord, redirectUrl: string | null): string {
  const late = invoice.status === 'Expired' && invoice.additionalStatus === 'PaidLate' ? ' It was paid after it expired.' : '';
  const partial = invoice.additionalStatus === 'PaidPartial' ? ' It was only partly paid: contact the store for a refund.' : '';
  const back = redirectUrl ? `<p><a href="${escapeHtml(redirectUrl)}">Return to the store</a></p>` : '';
  return layout(
    `Invoice ${invoice.status.toLowerCase()}`,
    `<h1>${escapeHtml(itemOf(invoice))}</h1>
<p class="amount">${escapeHtml(fiat(invoice, invoice.price))}</p>
<p class="state" role="status">${escapeHtml((STATE_TEXT[invoice.status] ?? invoice.status) + late + partial)}</p>
${back}`,
  );
}

export function notFoundPage(): string {
  return layout('Invoice not found', '<h1>Invoice not found</h1>\n<p>Check the link, or start the payment again from the store.</p>');
}
