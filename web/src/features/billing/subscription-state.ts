import type { I18n } from '@lingui/core';
import { BILLING_MESSAGES, type Subscription } from '../../../../shared/billing.js';
import type { Formatters } from '../../i18n/format';

/**
 * Where a subscription stands for its renewal, as the dashboard and the admin list say it:
 * - `renews`: recurring and auto-renewing; charged `amount` cents on `on`.
 * - `pastDue`: the last renewal charge failed; the account is paused at `graceEndsAt` unless the card is fixed.
 * - `ending`: auto-renew is off; it ends on `on` (the end of the paid period).
 * - `ended`: over (a cancelled recurring subscription, or a one-off whose period has passed).
 * - `pending`: the first payment has not gone through yet.
 * - `oneOff`: paid once for a period that is still running; it ends on `on`.
 */
export type RenewalState =
  | { kind: 'renews'; on: string | null; amount: number }
  | { kind: 'pastDue'; graceEndsAt: string | null }
  | { kind: 'ending'; on: string | null }
  | { kind: 'ended'; on: string | null }
  | { kind: 'pending' }
  | { kind: 'oneOff'; on: string | null };

/** A recurring subscription that still runs (paid, or in its grace period after a failed charge). */
export function isLiveRecurring(subscription: Subscription): boolean {
  return subscription.billing === 'recurring' && (subscription.status === 'active' || subscription.status === 'past_due');
}

export function renewalStateOf(subscription: Subscription): RenewalState {
  const { status, currentPeriodEnd } = subscription;
  if (status === 'canceled' || status === 'ended') return { kind: 'ended', on: currentPeriodEnd };
  if (status === 'incomplete') return { kind: 'pending' };
  if (subscription.billing === 'one_off') return { kind: 'oneOff', on: currentPeriodEnd };
  if (subscription.cancelAtPeriodEnd) return { kind: 'ending', on: currentPeriodEnd };
  if (status === 'past_due') return { kind: 'pastDue', graceEndsAt: subscription.graceEndsAt };
  if (subscription.autoRenews) {
    return { kind: 'renews', on: subscription.renewsAt ?? currentPeriodEnd, amount: subscription.renewalAmount ?? subscription.price };
  }
  return { kind: 'ending', on: currentPeriodEnd };
}

/** Auto-renew can be turned off: a running recurring subscription that has not been cancelled yet. */
export function canCancelAutoRenew(subscription: Subscription): boolean {
  return isLiveRecurring(subscription) && !subscription.cancelAtPeriodEnd;
}

/** Auto-renew can be turned back on: it was cancelled, and the paid period is not over yet. */
export function canResume(subscription: Subscription, now: Date = new Date()): boolean {
  if (!isLiveRecurring(subscription) || !subscription.cancelAtPeriodEnd) return false;
  const end = subscription.currentPeriodEnd ? new Date(subscription.currentPeriodEnd).getTime() : Number.NaN;
  return Number.isNaN(end) || end > now.getTime();
}

/**
 * Each account's running recurring subscription (the newest, if there were several), by account id.
 * `subscriptions` come newest first, as `GET /api/subscriptions` answers.
 */
export function recurringByAccount(subscriptions: readonly Subscription[]): ReadonlyMap<string, Subscription> {
  const byAccount = new Map<string, Subscription>();
  for (const subscription of subscriptions) {
    if (!subscription.vpnAccountId || !isLiveRecurring(subscription) || byAccount.has(subscription.vpnAccountId)) continue;
    byAccount.set(subscription.vpnAccountId, subscription);
  }
  return byAccount;
}

/** The account is paid by a subscription that renews (or can be resumed): paying for a period by hand (Renew) would double up. */
export function replacesManualRenewal(subscription: Subscription | undefined): boolean {
  if (subscription === undefined) return false;
  // A plan the store renews whose card was declined may be renewed by hand (its next try then stops).
  if (subscription.renewedHere && subscription.status === 'past_due') return false;
  return subscription.autoRenews || canResume(subscription);
}

/**
 * The renewal in words (`_` and `format` of the current language): "Renews on Dec 24, 2026 · $4.99",
 * "Auto-renew off — ends on Dec 24, 2026", "Payment failed", "Ended Dec 24, 2026", "Ends Dec 24, 2026 ·
 * does not renew automatically"; null while the first payment is pending.
 */
export function describeRenewal(subscription: Subscription, _: I18n['_'], format: Formatters): string | null {
  const state = renewalStateOf(subscription);
  switch (state.kind) {
    case 'renews': {
      const values = { date: format.date(state.on), amount: format.money(state.amount, subscription.currency) };
      // A plan the store renews names the saved card it will charge.
      return subscription.savedMethod
        ? _('account.renewal.renewsWithCard', { ...values, card: subscription.savedMethod.title })
        : _('account.renewal.renews', values);
    }
    case 'ending':
      return _('account.renewal.ending', { date: format.date(state.on) });
    case 'pastDue':
      return _('account.renewal.pastDue');
    case 'ended':
      return state.on ? _('account.renewal.endedOn', { date: format.date(state.on) }) : _('account.renewal.ended');
    case 'oneOff':
      return state.on ? _('account.renewal.oneOffEnds', { date: format.date(state.on) }) : _('account.renewal.oneOff');
    case 'pending':
      return null;
  }
}

/** What a customer whose renewal charge failed must do, and by when. */
export function pastDueWarning(subscription: Subscription, _: I18n['_'], format: Formatters): string {
  // The store tries its saved card again by itself; the VPN runs to the end of the paid period meanwhile.
  if (subscription.renewedHere) return _('account.renewal.pastDueHere', { date: format.date(subscription.currentPeriodEnd) });
  return subscription.graceEndsAt
    ? _('account.renewal.pastDueWarningBy', { date: format.date(subscription.graceEndsAt) })
    : _('account.renewal.pastDueWarning');
}

/** The note the server keeps on a subscription, in the page's language when it is one the page knows. */
export function subscriptionErrorText(error: string, _: I18n['_']): string {
  return error === BILLING_MESSAGES.methodNotSaved ? _('account.billing.methodNotSaved') : error;
}
