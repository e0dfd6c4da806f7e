/**
 * Whether an account's link may be served: the state our row gives, and what the panel's own answer says
 * (its placeholder, or its usage past expiry or quota).
 */
import type { PanelCopy } from './subscription-content.js';
import type { PageStatus } from './subscription-page.js';
import type { SubscriptionAccount } from './subscription.repo.js';

/** What the account's state is for this link, from our row (and, for a client, the panel's answer). */
export type AccountState = PageStatus;
export type BlockedState = Exclude<AccountState, 'active' | 'on_hold' | 'pending'>;

const BLOCKED_STATUSES = new Set<string>(['suspended', 'disabled', 'expired', 'limited']);

/** The state our own row gives: its status, then expiry and quota (the sync job may not have run yet). */
export function accountState(account: SubscriptionAccount, now: Date): AccountState {
  // Paid, and waiting only for its panel user: being set up, not waiting for a payment.
  if (account.status === 'suspended' && account.paid) return 'pending';
  if (BLOCKED_STATUSES.has(account.status)) return account.status as BlockedState;
  if (account.status !== 'active' && account.status !== 'on_hold') return 'inactive';
  if (account.expireDate && account.expireDate.getTime() <= now.getTime()) return 'expired';
  if (account.dataLimitBytes !== null && account.usedTrafficBytes !== null && account.usedTrafficBytes >= account.dataLimitBytes) return 'limited';
  if (account.subscriptionUrl === null) return 'pending';
  return account.status;
}

/** What the panel's own answer says: its placeholder, or its userinfo past expiry or quota. */
export function panelState(copy: PanelCopy, now: Date): BlockedState | null {
  if (copy.placeholder) return 'disabled';
  const usage = copy.usage;
  if (!usage) return null;
  if (usage.expire > 0 && usage.expire * 1000 <= now.getTime()) return 'expired';
  if (usage.total > 0 && usage.upload + usage.download >= usage.total) return 'limited';
  return null;
}
