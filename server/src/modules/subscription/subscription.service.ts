/**
 * Our subscription link, `PUBLIC_URL/sub/<token>` (architecture.md, "The subscription link"; clients.md):
 * finds the account by its unguessable token, tells a browser about it on a branded page, and gives a
 * VPN client the configuration from the panel in the format it wants, with our own headers.
 *
 * - The format: a path suffix forces it; else the User-Agent's anchored rules. We ask the panel for that
 *   format explicitly (each kind's own path, panels/subscription-url.ts), passing on the client's User-Agent
 *   where the panel wants it: through the panel URL the admin added first, then the panel's public
 *   subscription address (which a blocked or private domain may make unreachable from here).
 * - Cached per account and format in two layers: this instance's memory (fresh for 60 s, then served stale
 *   while one background refresh runs), and behind it the database (stored-copies.ts), shared by every
 *   instance: a copy fetched once is served from there at once, and refreshed in the background when older
 *   than 60 s. Memory keeps an account read from the database only when it is asked for again soon (within
 *   half a minute surely, after a minute never): clients ask every few hours, most accounts once in that
 *   time. The panel is asked before answering only for a copy never fetched; the panel down → the last good
 *   copy, or 503 without one.
 *   Account rows and the brand are cached briefly, and a token that matched no row answers 404 for 30 s
 *   without a query.
 * - An account that cannot be used (ours says suspended / disabled / expired / over quota, or the panel
 *   serves its `disabled` placeholder or says expired / over quota) gets a plain message, never configs.
 * - Nothing of the panel is passed on but the configuration itself: headers are ours, errors are generic.
 * - Devices (issue 24): a client that sends `x-hwid` is a device of the account; on an account with a
 *   device limit a new device beyond it, or (if the operator says so) a client without a device id, gets
 *   a placeholder entry naming the reason, and nothing is asked of the panel (device-admission.ts).
 */

import type { OpenPageReply } from './open-page.js';
import { handleSubscription } from './handle-subscription.js';
import { createSubscriptionContext, invalidateAccount, stats, whenIdle } from './subscription-context.js';
import type { SubscriptionReply, SubscriptionRequest, SubscriptionServiceDeps } from './subscription-deps.js';
import { openApp } from './subscription-replies.js';

export { accountState, type AccountState } from './account-state.js';
export { contentDisposition } from './subscription-brand.js';
export {
  SUBSCRIPTION_MESSAGES,
  SUBSCRIPTION_NOT_FOUND,
  type SiteLinks,
  type SubscriptionBrand,
  type SubscriptionLog,
  type SubscriptionReply,
  type SubscriptionRequest,
  type SubscriptionServiceDeps,
} from './subscription-deps.js';

/**
 * `/sub`: each use case is a function of its own taking the service's context first (handle-subscription.ts,
 * subscription-replies.ts, subscription-context.ts); this builds the context once and binds them.
 */
export function createSubscriptionService(deps: SubscriptionServiceDeps) {
  const ctx = createSubscriptionContext(deps);
  return {
    /** Answers one `GET /sub/<path>`. Throws AppError 404 (unknown or malformed) and 503 (panel down, nothing cached; not provisioned yet). */
    handle: (request: SubscriptionRequest): Promise<SubscriptionReply> => handleSubscription(ctx, request),

    /** `GET /open/<app>?url=`: the page that opens an app's deep link for one of our `/sub` links (open-page.ts). */
    openApp: (request: { appId: string; url: string | undefined; acceptLanguage?: string }): Promise<OpenPageReply> => openApp(ctx, request),

    /** Forgets what is cached (here) and stored (for every instance) for an account: call after renewing, disabling or moving it. */
    invalidateAccount: (accountId: string): Promise<void> => invalidateAccount(ctx, accountId),

    /** Forgets which devices the account has admitted (call after one is removed, here or on another instance). */
    forgetDevices(accountId: string): void {
      ctx.devices.forget(accountId);
    },

    /** Forgets the cached brand settings (call after the admin saves them). */
    invalidateBrand(): void {
      ctx.brand.invalidate();
    },

    /** Resolves when no panel fetch or stored-copy write is in flight (tests; graceful shutdown). */
    whenIdle: (): Promise<void> => whenIdle(ctx),

    /** Sizes, for tests and diagnostics. */
    stats: () => stats(ctx),
  };
}

export type SubscriptionService = ReturnType<typeof createSubscriptionService>;
