import type { PayLinkSignInResponse } from '../../../../shared/telegram-auth.js';
import { apiClient } from '../../api';
import { REQUESTED_PLAN_PARAM } from '../billing/useRequestedPlan';
import { REQUESTED_RENEWAL_PARAM } from '../billing/useRequestedRenewal';
import { REQUESTED_DIALOG_PARAMS } from '../billing/useRequestedAccountDialog';
import type { PayLinkAction } from '../../../../shared/telegram-auth.js';

/** The one try of each link on this page (React may run an effect twice, and a link works once): every caller gets its outcome. */
const tries = new Map<string, Promise<PayLinkSignInResponse>>();

/**
 * Signs in with a payment link from the bot (`/pay/<token>`): the session comes as cookies, the answer names the
 * customer and what the checkout is for. A try that failed (offline, the server down) may be made again.
 */
export function signInWithPayLink(token: string): Promise<PayLinkSignInResponse> {
  let attempt = tries.get(token);
  if (!attempt) {
    attempt = apiClient.request<PayLinkSignInResponse>('POST', '/api/auth/pay-link', { body: { token } });
    tries.set(token, attempt);
    attempt.catch(() => tries.delete(token));
  }
  return attempt;
}

/**
 * Where the checkout opens once the link has signed the customer in: the dashboard's payment dialog for the plan, or
 * for the renewal, or (the link's `action`) the account's add-ons or plan change dialog.
 */
export function checkoutPathAfterPayLink(answer: { planId: string } | { accountId: string; action?: PayLinkAction }): string {
  const query =
    'planId' in answer
      ? [REQUESTED_PLAN_PARAM, answer.planId]
      : [answer.action ? REQUESTED_DIALOG_PARAMS[answer.action] : REQUESTED_RENEWAL_PARAM, answer.accountId];
  return `/dashboard?${new URLSearchParams([query]).toString()}`;
}
