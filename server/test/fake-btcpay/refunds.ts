/**
 * `POST …/invoices/{invoiceId}/refund` as GreenfieldInvoiceController.RefundInvoice answers it: a pull
 * payment the customer claims at its `viewLink`, for the amount the refund variant says.
 */
import { fiatDigits, fiatFor, formatBtc, formatMinor, parseMinor } from './amounts.js';
import type { PullPaymentObject } from './greenfield-objects.js';
import { GreenfieldApiError, validationError } from './http.js';
import { base58Id, nowSeconds } from './ids.js';
import { canRefund, PAYMENT_METHOD_ID, type InvoiceRecord, type Invoices } from './invoices.js';

const VARIANTS = ['RateThen', 'CurrentRate', 'OverpaidAmount', 'Fiat', 'Custom'] as const;
type RefundVariant = (typeof VARIANTS)[number];

/** The payout methods a refund may name: the invoice's on-chain BTC (and its pre-2.0 name). */
function checkPayoutMethods(body: Record<string, unknown>): void {
  const given = body.payoutMethods ?? (body.payoutMethodId === undefined || body.payoutMethodId === null ? null : [body.payoutMethodId]);
  if (given === null) return;
  const path = body.payoutMethods !== undefined ? 'payoutMethods' : 'payoutMethodId';
  if (!Array.isArray(given) || given.length === 0)
    throw validationError({ path, message: 'Please select one of the payment methods which were available for the original invoice' });
  for (const method of given) {
    if (method !== PAYMENT_METHOD_ID && method !== 'BTC') throw validationError({ path, message: `Invalid or unsupported payout method: ${String(method)}` });
  }
}

/** Crypto paid, in sats; a settled invoice marked paid with nothing received counts as paid in full (as BTCPay does). */
function cryptoPaid(invoice: InvoiceRecord, invoices: Invoices): number {
  const paid = invoices.paidSats(invoice);
  return paid === 0 && invoice.status === 'Settled' && invoice.additionalStatus === 'Marked' ? invoice.priceSats : paid;
}

/** The pull payment's currency, amount (as Greenfield writes it, and in its minor units) and divisibility. */
function amountFor(
  variant: RefundVariant,
  body: Record<string, unknown>,
  invoice: InvoiceRecord,
  invoices: Invoices,
): { currency: string; minor: number; digits: number } {
  const paid = cryptoPaid(invoice, invoices);
  switch (variant) {
    case 'RateThen':
    case 'CurrentRate':
      return { currency: 'BTC', minor: paid, digits: 8 };
    case 'Fiat':
      return { currency: invoice.currency, minor: fiatFor(paid, invoice.digits), digits: invoice.digits };
    case 'OverpaidAmount':
      if (invoice.additionalStatus !== 'PaidOver') throw validationError({ path: 'refundVariant', message: 'Invoice is not overpaid' });
      return { currency: 'BTC', minor: paid - invoice.priceSats, digits: 8 };
    case 'Custom': {
      const currency = typeof body.customCurrency === 'string' ? body.customCurrency.toUpperCase() : '';
      const digits = currency === 'BTC' ? 8 : currency ? fiatDigits(currency) : null;
      const problems = [];
      const minor = digits === null ? null : parseMinor(body.customAmount, digits);
      if (minor === null || minor <= 0) problems.push({ path: 'customAmount', message: 'Amount must be greater than 0' });
      if (digits === null) problems.push({ path: 'customCurrency', message: 'Invalid currency' });
      if (problems.length > 0 || minor === null || digits === null) throw validationError(...problems);
      return { currency, minor, digits };
    }
  }
}

/** The pull payments made for refunds, oldest first. */
export function createRefunds(invoices: Invoices, viewLink: (pullPaymentId: string) => string) {
  const pullPayments: PullPaymentObject[] = [];

  return {
    all: (): PullPaymentObject[] => structuredClone(pullPayments),

    /** Validates like BTCPay and records the pull payment (with the invoice it refunds); returns it as the API answers it. */
    create(invoice: InvoiceRecord, body: Record<string, unknown>): PullPaymentObject {
      if (!canRefund(invoice)) throw new GreenfieldApiError(400, 'non-refundable', 'Cannot refund this invoice');
      checkPayoutMethods(body);
      const variant = body.refundVariant;
      if (variant === undefined || variant === null) throw validationError({ path: 'refundVariant', message: '`refundVariant` is mandatory' });
      if (!VARIANTS.includes(variant as RefundVariant)) throw validationError({ path: 'refundVariant', message: 'Please select a valid refund option' });
      if (variant !== 'Custom') {
        const problems = [];
        if (body.customAmount !== undefined && body.customAmount !== null)
          problems.push({ path: 'customAmount', message: 'CustomAmount should only be set if the refundVariant is Custom' });
        if (body.customCurrency !== undefined && body.customCurrency !== null)
          problems.push({ path: 'customCurrency', message: 'CustomCurrency should only be set if the refundVariant is Custom' });
        if (problems.length > 0) throw validationError(...problems);
      }
      const { currency, minor, digits } = amountFor(variant as RefundVariant, body, invoice, invoices);
      const subtract = body.subtractPercentage === undefined || body.subtractPercentage === null ? 0 : Number(body.subtractPercentage);
      if (!(subtract >= 0 && subtract <= 100))
        throw validationError({ path: 'subtractPercentage', message: 'Percentage must be a numeric value between 0 and 100' });
      const amount = Math.round(minor - (minor * subtract) / 100);
      if (amount <= 0) throw validationError({ path: 'refundVariant', message: 'The refund amount must be more than 0' });
      const id = base58Id(20);
      const pullPayment: PullPaymentObject = {
        id,
        name: typeof body.name === 'string' && body.name ? body.name : `Refund ${invoice.id}`,
        description: typeof body.description === 'string' ? body.description : null,
        currency,
        amount: currency === 'BTC' ? formatBtc(amount) : formatMinor(amount, digits),
        BOLT11Expiration: '30',
        // BTCPay approves claims at once only when the amount is fixed in crypto.
        autoApproveClaims: variant !== 'Fiat' && (variant !== 'Custom' || currency === 'BTC'),
        archived: false,
        startsAt: nowSeconds(),
        expiresAt: null,
        viewLink: viewLink(id),
      };
      pullPayments.push({ ...pullPayment, invoiceId: invoice.id });
      return pullPayment;
    },
  };
}
