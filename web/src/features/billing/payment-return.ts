import type { VpnAccount } from '../../../../shared/accounts.js';
import { BILLING_MESSAGES, type CheckoutStatus, type CryptoProgress } from '../../../../shared/billing.js';
import { formatUsd } from '../../../../shared/pricing.js';

/**
 * Where a return from card checkout stands. `idle`: there is no session to check; `waiting`: still
 * polling (`paid`: the payment went through and the account is being made; else the payment itself is
 * still processing, as a bank debit can for days); the other four are final.
 */
export type PaymentReturnState =
  | { kind: 'idle' }
  /** `crypto`: an open crypto payment, seen and waiting for confirmations or partly paid. */
  | { kind: 'waiting'; paid: boolean; crypto?: CryptoProgress }
  | { kind: 'ready'; account: VpnAccount; renewal: boolean }
  | { kind: 'failed'; error: string }
  | { kind: 'timedOut' }
  | { kind: 'error' };

/** A state that ends the polling. */
export type SettledPaymentReturn = Extract<PaymentReturnState, { kind: 'ready' | 'failed' | 'timedOut' | 'error' }>;

/**
 * What one answer of `GET /api/checkout/:sessionId` means: the final state, or null to keep polling
 * (still pending, or paid but the account is not provisioned yet).
 */
export function settleCheckoutStatus(status: CheckoutStatus): SettledPaymentReturn | null {
  if (status.status === 'failed') return { kind: 'failed', error: status.error || BILLING_MESSAGES.paymentFailed };
  if (status.status === 'needs_review') return { kind: 'failed', error: status.error || BILLING_MESSAGES.paymentNeedsReview };
  if (status.status === 'succeeded' && status.account) {
    return { kind: 'ready', account: status.account, renewal: status.renewal };
  }
  return null;
}

/** The session to confirm from a return address's query string, or null without a usable one. */
export function readSessionId(params: URLSearchParams): string | null {
  const sessionId = params.get('session_id')?.trim();
  return sessionId ? sessionId : null;
}

/** An open crypto payment in plain words: part of it missing, or seen and waiting for the network. */
export function describeCryptoProgress(crypto: CryptoProgress): string {
  if (crypto.additionalStatus === 'PaidPartial' && crypto.amountDue) {
    return `Part of your crypto payment has arrived: ${formatUsd(crypto.amountDue)} is still missing. Send the rest from the payment page, or contact support.`;
  }
  if (crypto.status === 'Processing') {
    return 'Crypto payment seen: waiting for network confirmations. Your account is made as soon as it is confirmed; you can close this page.';
  }
  return 'Waiting for your crypto payment. Your account is made as soon as it is confirmed.';
}
