import type { SubscriptionStatus } from '../../../../../shared/billing.js';
import type { UserProfile, Actor } from '../../users/index.js';
import { cancelForAdmin, endForDeletedAccount, listForAdmin } from './admin-subscription-controls.js';
import { cancelSubscription, openBillingPortal, resumeSubscription } from './customer-subscription-controls.js';
import type { SubscriptionControlsDeps } from './subscription-controls-deps.js';

export type { SubscriptionControlsDeps } from './subscription-controls-deps.js';

/**
 * What customers and admins do to recurring subscriptions: cancel auto-renew and resume it, cancel now
 * (admin), and open the provider's billing portal. Each change is made at the provider first, and its
 * answer applied here at once (the webhook that follows finds it already applied). The use cases are
 * customer-subscription-controls.ts and admin-subscription-controls.ts (over subscription-changes.ts); this binds them once.
 */
export function createSubscriptionControls(deps: SubscriptionControlsDeps) {
  return {
    cancel: (user: UserProfile, id: string) => cancelSubscription(deps, user, id),
    resume: (user: UserProfile, id: string) => resumeSubscription(deps, user, id),
    openPortal: (user: UserProfile) => openBillingPortal(deps, user),
    endForDeletedAccount: (accountId: string) => endForDeletedAccount(deps, accountId),
    listForAdmin: (filter: { status?: SubscriptionStatus; email?: string; unreadable?: boolean; limit: number }) => listForAdmin(deps, filter),
    cancelForAdmin: (actor: Actor, id: string, when: 'now' | 'period_end') => cancelForAdmin(deps, actor, id, when),
  };
}

export type SubscriptionControls = ReturnType<typeof createSubscriptionControls>;
