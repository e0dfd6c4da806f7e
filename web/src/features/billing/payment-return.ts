import type { I18n } from '@lingui/core';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { CheckoutStatus, CryptoProgress } from '../../../../shared/billing.js';
import type { Formatters } from '../../i18n/format';

/**
 * Where a return from card checkout stands. `idle`: there is no session to check; `waiting`: still
 * polling (`paid`: the payment went through and the account is being made; else the payment itself is
 * still processing, as a bank debit can for days); the other four are final.
 */
export type PaymentReturnState =
  | { kind: 'idle' }
  /** `crypto`: an open crypto payment, seen and waiting for confirmations or partly paid. */
  | { kind: 'waiting'; paid: boolean; crypto?: CryptoProgress; currency?: string }
  | { kind: 'ready'; account: VpnAccount; renewal: boolean; change?: 'plan' | 'add_on' | 'trial' }
  /** A top-up of the wallet went through: the money is in the balance. */
  | { kind: 'toppedUp' }
  | { kind: 'failed'; error: string }
  | { kind: 'timedOut' }
  | { kind: 'error' };

/** A state that ends the polling. */
export type SettledPaymentReturn = Extract<PaymentReturnState, { kind: 'ready' | 'toppedUp' | 'failed' | 'timedOut' | 'error' }>;

/**
 * What one answer of `GET /api/checkout/:sessionId` means: the final state, or null to keep polling
 * (still pending, or paid but the account is not provisioned yet). The server's own error is shown
 * as it is; `_` words the fallback when there is none.
 */
export function settleCheckoutStatus(status: CheckoutStatus, _: I18n['_']): SettledPaymentReturn | null {
  if (status.status === 'failed') return { kind: 'failed', error: status.error || _('account.billing.paymentFailed') };
  if (status.status === 'cancelled') return { kind: 'failed', error: status.error || _('account.billing.paymentCancelled') };
  if (status.status === 'needs_review') return { kind: 'failed', error: status.error || _('account.billing.paymentNeedsReview') };
  if (status.status === 'succeeded' && status.topUp) return { kind: 'toppedUp' };
  if (status.status === 'succeeded' && status.account) {
    return { kind: 'ready', account: status.account, renewal: status.renewal, ...(status.change ? { change: status.change } : {}) };
  }
  return null;
}

/** The session to confirm from a return address's query string, or null without a usable one. */
export function readSessionId(params: URLSearchParams): string | null {
  const sessionId = params.get('session_id')?.trim();
  return sessionId ? sessionId : null;
}

/**
 * An open crypto payment in plain words (`_` and `format` of the current language): part of it missing (in
 * the order's `currency`), or seen and waiting for the network.
 */
export function describeCryptoProgress(crypto: CryptoProgress, currency: string, _: I18n['_'], format: Formatters): string {
  if (crypto.additionalStatus === 'PaidPartial' && crypto.amountDue) {
    return _('account.crypto.partial', { amount: format.money(crypto.amountDue, currency) });
  }
  // Paid in full (in time, or after the invoice expired): waiting for the network's confirmations.
  if (crypto.status === 'Processing' || crypto.additionalStatus === 'PaidLate') return _('account.crypto.processing');
  return _('account.crypto.waiting');
}
