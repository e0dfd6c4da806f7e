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
  /** `/sub` refused a new device: the account already has all `limit` devices of its plan (told once per account and day). */
  | { kind: 'device_limit'; accountId: string; limit: number }
  /** An account set to renew from the balance whose balance will not cover it (ahead, or when the renewal failed). */
  | { kind: 'wallet_renewal_short'; accountId: string; endsAt: string; price: number; needed: number; currency: string; final: boolean }
  /** Subscription links are now issued on `host` (the domain the account's link was on was blocked): its new link. */
  | { kind: 'subscription_link_moved'; accountId: string; host: string }
  /** Money given back: `amountRefunded` is the payment's refunded total (one notice per total). */
  | { kind: 'refund'; transactionId: string; amountRefunded: number };

/**
 * Queues billing e-mails, and the same notice by every other channel a module adds (the Telegram bot's messages).
 * `key` names the event the notice is about: each job's dedupe key is the exactly-once gate, so a redelivered event,
 * a retry or a racing instance never tells the customer twice.
 */
export function createBillingNotices(deps: { jobs: JobsRepo; clock: Clock }) {
  const channels: string[] = [SEND_BILLING_EMAIL];
  return {
    async notify(notice: BillingNotice, key: string, trx?: Db): Promise<void> {
      const now = deps.clock();
      for (const type of channels) {
        await deps.jobs.enqueue({ type, payload: notice, dedupeKey: `${type}:${notice.kind}:${key}`, maxAttempts: MAX_ATTEMPTS }, now, trx);
      }
    },

    /** Every notice is also queued as a job of `jobType` (its handler reads the notice as the e-mail's does). */
    alsoSendBy(jobType: string): void {
      if (!channels.includes(jobType)) channels.push(jobType);
    },
  };
}

export type BillingNotices = ReturnType<typeof createBillingNotices>;
