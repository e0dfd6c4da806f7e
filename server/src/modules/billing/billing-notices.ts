import type { Db } from '../../db/knex.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import type { Clock } from '../../lib/clock.js';

/** Sends one billing e-mail (see send-billing-email.ts). */
export const SEND_BILLING_EMAIL = 'send_billing_email';
const MAX_ATTEMPTS = 200;

/** What the customer is told, and about which record; the handler reads the records when it runs. */
export type BillingNotice =
  | { kind: 'receipt'; transactionId: string }
  | { kind: 'payment_failed'; transactionId: string; nextAttemptAt: string | null }
  /** A crypto invoice closed with only part of it paid: nothing delivered, what was sent will be refunded. */
  | { kind: 'partial_payment'; transactionId: string }
  | { kind: 'account_paused'; subscriptionId: string }
  | { kind: 'subscription_canceled'; subscriptionId: string; byAdmin: boolean }
  /** Auto-renew turned back on after it was cancelled. */
  | { kind: 'subscription_resumed'; subscriptionId: string }
  | { kind: 'renewal_reminder'; subscriptionId: string; chargeAt: string }
  | { kind: 'plan_ending'; accountId: string; endsAt: string }
  | { kind: 'data_usage'; accountId: string; percent: 80 | 100 }
  /** An account set to renew from the balance whose balance will not cover it (ahead, or when the renewal failed). */
  | { kind: 'wallet_renewal_short'; accountId: string; endsAt: string; price: number; needed: number; currency: string; final: boolean }
  /** Subscription links are now issued on `host` (the domain the account's link was on was blocked): its new link. */
  | { kind: 'subscription_link_moved'; accountId: string; host: string };

/**
 * Queues billing e-mails. `key` names the event the e-mail is about: the job's dedupe key is the
 * exactly-once gate, so a redelivered event, a retry or a racing instance never mails twice.
 */
export function createBillingNotices(deps: { jobs: JobsRepo; clock: Clock }) {
  return {
    async notify(notice: BillingNotice, key: string, trx?: Db): Promise<void> {
      const now = deps.clock();
      await deps.jobs.enqueue(
        { type: SEND_BILLING_EMAIL, payload: notice, dedupeKey: `${SEND_BILLING_EMAIL}:${notice.kind}:${key}`, maxAttempts: MAX_ATTEMPTS },
        now,
        trx,
      );
    },
  };
}

export type BillingNotices = ReturnType<typeof createBillingNotices>;
