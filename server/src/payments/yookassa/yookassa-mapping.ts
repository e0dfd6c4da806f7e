import { decimalToMinor, minorToDecimal } from '../../../../shared/money.js';
import { PaymentProviderError, type CheckoutState } from '../payment-driver.js';
import type { YookassaPayment } from './yookassa-types.js';

/**
 * How the YooKassa driver speaks the API's language: amounts both ways, a payment's description, metadata and
 * 54-FZ receipt as YooKassa takes them, and a payment as our checkout state.
 */

/** 54-FZ receipts: YooKassa sends one to the customer's e-mail for every payment and refund (when the shop fiscalizes). */
export interface YookassaReceipts {
  enabled: boolean;
  /** The VAT of what is sold (YooKassa's `vat_code`, 1–12: 1 = no VAT, 4 = 20 %, 11 = 22 %). */
  vatCode: number;
  /** The shop's tax system (`tax_system_code`, 1–6), when its cash register needs it. */
  taxSystemCode: number | null;
}

/** YooKassa's limits on a payment's fields. */
export const MAX_DESCRIPTION = 128;
const MAX_METADATA_KEYS = 16;
const MAX_METADATA_KEY = 32;
const MAX_METADATA_VALUE = 512;

export const truncate = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The order's names, as YooKassa keeps metadata: at most 16 string keys of 32 characters, values of 512. */
export function metadataOf(orderId: string, extra: Record<string, string>): Record<string, string> {
  const entries = [['order_id', orderId] as const, ...Object.entries(extra).filter(([key]) => key !== 'order_id')]
    .filter(([key]) => key.length <= MAX_METADATA_KEY)
    .slice(0, MAX_METADATA_KEYS)
    .map(([key, value]) => [key, truncate(value, MAX_METADATA_VALUE)] as const);
  return Object.fromEntries(entries);
}

export const amountOf = (minor: number, currency: string) => ({ value: minorToDecimal(minor, currency), currency: currency.toUpperCase() });

export const minorOf = (amount: { value: string; currency: string } | undefined): number => (amount ? (decimalToMinor(amount.value, amount.currency) ?? 0) : 0);

/** The payment as our checkout state. A confirmation that ran out is `expired`; any other cancellation is a decline. */
export function checkoutStateOf(payment: YookassaPayment): CheckoutState {
  const outcome =
    payment.status === 'succeeded'
      ? 'paid'
      : payment.status === 'canceled'
        ? payment.cancellation_details?.reason === 'expired_on_confirmation'
          ? 'expired'
          : 'failed'
        : 'open';
  const method = payment.payment_method;
  return {
    checkoutId: payment.id,
    orderId: payment.metadata?.order_id ?? null,
    outcome,
    amountPaid: outcome === 'paid' ? minorOf(payment.amount) : null,
    currency: payment.amount.currency.toLowerCase(),
    paymentRef: payment.id,
    savedMethod: method?.saved ? { ref: method.id, title: method.title ?? (method.card ? `Bank card *${method.card.last4}` : method.type) } : null,
    declineReason: payment.cancellation_details?.reason ?? null,
  };
}

/** The receipt of a sale of one service at `minor` (54-FZ), when receipts are on (`receipts` is null when they are off). */
export function receiptOf(receipts: YookassaReceipts | null, email: string | null, description: string, minor: number, currency: string) {
  if (!receipts) return {};
  // Checkouts ask for an address first (emailRequired); a renewal of a customer who has since lost theirs cannot be charged.
  if (!email) throw new PaymentProviderError("A YooKassa receipt goes to the customer's e-mail address, and they have none", null, true);
  return {
    receipt: {
      customer: { email },
      items: [
        {
          description: truncate(description, MAX_DESCRIPTION),
          quantity: 1,
          amount: amountOf(minor, currency),
          vat_code: receipts.vatCode,
          payment_mode: 'full_payment',
          payment_subject: 'service',
        },
      ],
      ...(receipts.taxSystemCode ? { tax_system_code: receipts.taxSystemCode } : {}),
    },
  };
}
