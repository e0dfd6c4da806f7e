/**
 * Subscription links moved to another domain (the one they were on was marked blocked): every customer with
 * an account in use is e-mailed its new link, once per account and move (the notices' dedupe keys make a job
 * that ran halfway, then again, mail nobody twice). Apps that read `new-domain` move by themselves (`/sub`).
 */
import { z } from 'zod';
import { activeSubscriptionHost, type SubscriptionDomain } from '../../../../shared/subscription-domains.js';
import type { Db } from '../../db/knex.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import { PermanentJobError, type JobHandler } from '../../jobs/worker.js';
import type { BillingNotices } from '../billing/index.js';

export const SUBSCRIPTION_LINKS_MOVED = 'subscription_links_moved';

/** Accounts whose customers still use their link (an ended or deleted one is not mailed). */
const IN_USE = ['active', 'on_hold', 'limited', 'disabled'];
const BATCH = 500;

const Payload = z.object({ host: z.string().min(1).max(260) });

/** Queues the fan-out for a move to `host` (its key: one per move, a save repeated is the same move). */
export function enqueueLinksMoved(jobs: JobsRepo, host: string, now: Date): Promise<unknown> {
  return jobs.enqueue(
    { type: SUBSCRIPTION_LINKS_MOVED, payload: { host }, dedupeKey: `${SUBSCRIPTION_LINKS_MOVED}:${host}:${now.toISOString()}`, maxAttempts: 20 },
    now,
  );
}

export function createLinksMovedHandler(deps: {
  db: Db;
  notices: BillingNotices;
  publicUrl: URL;
  subscriptionDomains(): Promise<SubscriptionDomain[]>;
}): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('subscription_links_moved: bad payload');
    const { host } = parsed.data;
    // Moved again since: the newer move's job tells everyone the newer link.
    if (activeSubscriptionHost(await deps.subscriptionDomains(), deps.publicUrl) !== host) return;
    let after = '';
    for (;;) {
      const ids = (await deps
        .db('vpn_accounts')
        .whereIn('status', IN_USE)
        .whereNotNull('subscription_url')
        .where('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .pluck('id')) as string[];
      for (const accountId of ids) await deps.notices.notify({ kind: 'subscription_link_moved', accountId, host }, `${accountId}:${host}`);
      if (ids.length < BATCH) return;
      after = ids[ids.length - 1]!;
    }
  };
}
