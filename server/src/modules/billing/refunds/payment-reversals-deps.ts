import type { AddOnsRepo } from '../add-ons/add-ons.repo.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import { accountSerialKey, type JobsRepo } from '../../../jobs/jobs.repo.js';
import type { Clock } from '../../../lib/clock.js';
import type { PaymentEvent } from '../../../payments/payment-driver.js';
import type { AccountsRepo } from '../../accounts/index.js';
import type { AuditRepo } from '../../audit/index.js';
import type { WalletLedger } from '../../credit/index.js';
import type { BillingNotices } from '../billing-notices.js';
import type { BillingRepo, TransactionRecord } from '../billing.repo.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import { SYNC_PAID_PERIOD } from '../ledger/sync-paid-period.js';
import type { KeptReversal, KeptReversalsRepo } from './kept-reversals.repo.js';
import type { RefundsRepo } from './refunds.repo.js';

/**
 * What the reversal use cases (apply-refunds.ts, apply-disputes.ts, take-back-period.ts) work with, the events
 * they apply, and the small steps they share: keeping an event for later, the follow-up jobs, the account's log.
 */
export interface PaymentReversalsDeps {
  billing: BillingRepo;
  periods: PaidPeriodsRepo;
  accounts: AccountsRepo;
  refunds: RefundsRepo;
  kept: KeptReversalsRepo;
  jobs: JobsRepo;
  notices: Pick<BillingNotices, 'notify'>;
  wallet: Pick<WalletLedger, 'takeBackTopUp'>;
  /** The add-on ledger: a refunded add-on is taken back. */
  addOns: AddOnsRepo;
  /** A refund made in the provider's dashboard is audited on the customer's page. */
  audit?: Pick<AuditRepo, 'record'>;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** A refund e-mail queued before refunds were billing notices (see send-refund-notice.ts): still sent. */
export const SEND_REFUND_NOTICE = 'send_refund_notice';
/** Ends at the provider a recurring subscription whose payment was refunded in full (see refund-jobs.ts). */
export const END_REFUNDED_SUBSCRIPTION = 'end_refunded_subscription';
/** Both act on the outside world (a panel, a mail server) and are retried until it answers. */
export const FOLLOW_UP_MAX_ATTEMPTS = 200;

export type RefundEvent = Extract<PaymentEvent, { kind: 'refunded' }>;
export type DisputeEvent = Extract<PaymentEvent, { kind: 'disputed' }>;
export type DisputeClosedEvent = Extract<PaymentEvent, { kind: 'dispute_closed' }>;
export type RefundFailedEvent = Extract<PaymentEvent, { kind: 'refund_failed' }>;

/** No payment of ours has this ref yet: the event is kept and applied when the payment confirms (see applyKept). */
export async function keep(deps: PaymentReversalsDeps, event: KeptReversal, trx: Db): Promise<void> {
  const { clock, log } = deps;
  await deps.kept.keep(event, clock(), trx);
  log.warn({ paymentRef: event.paymentRef, kind: event.kind }, 'payment reversal for a payment not confirmed yet: kept until it is');
}

/**
 * `paidUntilIfNone`: where the paid time ends when no paid period is left (the refunded one's start); a plan change
 * taken back: `dataLimitBytes`, the panel data limit to put back (null = unlimited), and `planMovedFrom`, the plan it
 * had moved the account to (its squads or groups go back to the plan's before).
 */
export async function syncAccount(
  deps: PaymentReversalsDeps,
  accountId: string | null,
  reason: string,
  trx: Db,
  taken: { periodStart?: Date; dataLimitBytes?: number | null; planMovedFrom?: string } = {},
): Promise<void> {
  const { periodStart: paidUntilIfNone, dataLimitBytes, planMovedFrom } = taken;
  const { jobs, clock } = deps;
  if (!accountId) return;
  await jobs.enqueue(
    {
      type: SYNC_PAID_PERIOD,
      payload: {
        accountId,
        ...(paidUntilIfNone ? { paidUntilIfNone: paidUntilIfNone.toISOString() } : {}),
        ...(dataLimitBytes !== undefined ? { dataLimitBytes } : {}),
        ...(planMovedFrom ? { planMovedFrom } : {}),
      },
      serialKey: accountSerialKey(accountId),
      dedupeKey: `${SYNC_PAID_PERIOD}:${accountId}:${reason}`,
      maxAttempts: FOLLOW_UP_MAX_ATTEMPTS,
    },
    clock(),
    trx,
  );
}

/** Tells the customer, once per refunded total, by e-mail and by every other channel billing notices go by (Telegram). */
export async function notifyRefund(deps: PaymentReversalsDeps, transaction: TransactionRecord, amountRefunded: number, trx: Db): Promise<void> {
  await deps.notices.notify({ kind: 'refund', transactionId: transaction.id, amountRefunded }, `${transaction.id}:${amountRefunded}`, trx);
}

export async function logStep(
  deps: PaymentReversalsDeps,
  transaction: TransactionRecord,
  accountId: string | null,
  step: string,
  details: Record<string, unknown>,
  trx: Db,
): Promise<void> {
  const { accounts, clock } = deps;
  await accounts.insertLog(
    { accountId, userId: transaction.userId, step, status: 'success', details: { transactionId: transaction.id, ...details }, now: clock() },
    trx,
  );
}
