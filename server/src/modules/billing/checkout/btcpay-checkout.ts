import type { CheckoutState } from '../../../payments/payment-driver.js';
import type { TransactionMetadata } from '../billing.repo.js';

/**
 * What a crypto checkout's own view (`CheckoutState.crypto`: BTCPay's invoice status and additional
 * status, amounts in minor units of the order's currency) means for applying it. A card checkout has no
 * such view, and every answer here is then "no".
 */

/**
 * What the customer sent on an invoice that closed unpaid (expired, or marked invalid, with a payment on
 * it), or null when nothing was paid (or the provider did not say). Approximate: converted at the
 * invoice's rate.
 */
export function cryptoPaidOnClosedInvoice(state: CheckoutState): number | null {
  const paid = state.crypto?.amountPaid;
  return typeof paid === 'number' && paid > 0 ? paid : null;
}

/** A paid invoice that got more than its price (BTCPay's PaidOver): what was sent and how much too much. */
export function cryptoOverpayment(state: CheckoutState): TransactionMetadata['overpaid'] | null {
  const sent = state.crypto?.amountPaid;
  if (state.outcome !== 'paid' || state.crypto?.additionalStatus !== 'PaidOver' || typeof sent !== 'number' || state.amountPaid === null) return null;
  return sent > state.amountPaid ? { amount_paid: sent, amount_over: sent - state.amountPaid } : null;
}

/** A payment seen after the invoice expired, still waiting for its confirmations (Expired, PaidLate, open). */
export const isLatePaymentSeen = (state: CheckoutState): boolean =>
  state.outcome === 'open' && state.crypto?.status === 'Expired' && state.crypto.additionalStatus === 'PaidLate';

/** The operator marked the invoice invalid in BTCPay (Invalid, Marked). */
export const isMarkedInvalid = (state: CheckoutState): boolean =>
  state.outcome === 'failed' && state.crypto?.status === 'Invalid' && state.crypto.additionalStatus === 'Marked';
