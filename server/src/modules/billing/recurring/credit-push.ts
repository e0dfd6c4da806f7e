import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import type { JobHandler } from '../../../jobs/worker.js';
import { addSeconds, type Clock } from '../../../lib/clock.js';
import type { PaymentDriver } from '../../../payments/payment-driver.js';
import type { AuditRepo } from '../../audit/index.js';
import type { BillingRepo, SubscriptionRecord } from '../billing.repo.js';
import { customerKeyOfDriver, type PaymentCustomers } from '../provider-accounts/payment-customers.js';
import { PROVIDER_BALANCE_NOTE } from '../../../../../shared/referrals.js';
import type { ReferralsRepo } from '../../referrals/index.js';

export const PUSH_REFERRAL_CREDIT = 'referrals.push_credit';
export const SWEEP_REFERRAL_CREDIT = 'referrals.sweep_credit';
/** Hourly: credit matures as its refund window ends, at no event of its own. */
const SWEEP_SECONDS = 3600;

/**
 * Available referral credit (what referrals earned, not money the customer paid into their wallet) is spent on the
 * referrer's auto-renewing card plan: it moves to their customer balance at the
 * payment provider (Stripe takes a customer's credit balance off their next invoices, so the next renewal is charged
 * that much less). Each move is a `spent` row of the ledger, written first (the intent, with the user's rows held so
 * two moves cannot spend one credit), then sent with the row's id as the idempotency key (a retry after a crash or a
 * timeout credits once), then marked with the provider's reference. A move not yet marked is sent again until it is.
 */
export function createCreditPush(deps: {
  db: Db;
  repo: ReferralsRepo;
  billing: BillingRepo;
  customers: PaymentCustomers;
  driverFor: (subscription: SubscriptionRecord) => Promise<PaymentDriver | null>;
  jobs: JobsRepo;
  audit: AuditRepo;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  const { db, repo, clock } = deps;

  /** One move per user at a time (`serialKey`), asked at most once per hour and user (the sweep's hour). */
  async function enqueue(userId: string, now: Date, trx: Db = db): Promise<void> {
    const hour = Math.floor(now.getTime() / (SWEEP_SECONDS * 1000));
    await deps.jobs.enqueue(
      {
        type: PUSH_REFERRAL_CREDIT,
        payload: { userId },
        dedupeKey: `${PUSH_REFERRAL_CREDIT}:${userId}:${hour}`,
        serialKey: `${PUSH_REFERRAL_CREDIT}:${userId}`,
        maxAttempts: 50,
      },
      now,
      trx,
    );
  }

  /** The move to send: one written before that was not confirmed, else a new one of what is available now (none: nothing to do). */
  async function intent(userId: string, currency: string): Promise<{ id: number; amount: number } | null> {
    return db.transaction(async (trx) => {
      await repo.lockUser(userId, trx);
      const unsent = await repo.unsentProviderMove(userId, trx);
      if (unsent) return { id: unsent.id, amount: -unsent.amount };
      const now = clock();
      // What referrals earned: money the customer paid into their wallet stays there for the wallet's own spending.
      const available = await repo.pushableReferralCredit(userId, currency, now, trx);
      if (available <= 0) return null;
      const id = await repo.insertCredit(
        { userId, referralId: null, transactionId: null, kind: 'spent', amount: -available, currency, availableAt: now, note: PROVIDER_BALANCE_NOTE },
        now,
        trx,
      );
      await deps.audit.record(
        {
          actorId: null,
          actorEmail: null,
          action: 'referral.credit_spent',
          targetType: 'user',
          targetId: userId,
          details: { creditId: id, amount: -available, currency, to: PROVIDER_BALANCE_NOTE },
          now,
        },
        trx,
      );
      return { id, amount: available };
    });
  }

  async function push(userId: string): Promise<string> {
    const subscription = await repo.liveRecurringSubscriptionId(userId).then((id) => (id ? deps.billing.findSubscription(id) : undefined));
    if (!subscription) return 'no auto-renewing plan: the credit stays available';
    const driver = await deps.driverFor(subscription);
    const customer = driver ? await deps.customers.find(userId, await customerKeyOfDriver(driver)) : undefined;
    if (!driver || !customer) return 'no provider customer: the credit stays available';
    const currency = subscription.metadata.currency ?? 'usd';
    const move = await intent(userId, currency);
    if (!move) return 'nothing available';
    const { ref } = await driver.creditCustomer(customer.customerRef, {
      amount: move.amount,
      currency,
      idempotencyKey: `referral-credit:${move.id}`,
      description: 'Referral credit',
      metadata: { user_id: userId, credit_id: String(move.id) },
    });
    await repo.markSent(move.id, ref);
    await deps.audit.record({
      actorId: null,
      actorEmail: null,
      action: 'referral.credit_sent',
      targetType: 'user',
      targetId: userId,
      details: { creditId: move.id, amount: move.amount, currency, ref },
      now: clock(),
    });
    deps.log.info({ userId, creditId: move.id, amount: move.amount, ref }, 'referral credit moved to the customer balance');
    return `moved ${move.amount} ${currency} (${ref})`;
  }

  return {
    enqueue,
    push,
    handlers: {
      [PUSH_REFERRAL_CREDIT]: (async (payload) => {
        const { userId } = payload as { userId: string };
        const outcome = await push(userId);
        deps.log.debug({ userId, outcome }, 'referral credit push');
      }) satisfies JobHandler,
      [SWEEP_REFERRAL_CREDIT]: (async () => {
        const now = clock();
        const users = await repo.usersWithCreditToMove(now);
        for (const userId of users) await enqueue(userId, now);
        return { runAgainAt: addSeconds(now, SWEEP_SECONDS), note: `${users.length} users with credit to move` };
      }) satisfies JobHandler,
    },
  };
}

export type CreditPush = ReturnType<typeof createCreditPush>;
