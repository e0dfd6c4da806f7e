import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import type { Clock } from '../../../lib/clock.js';
import type { AccountsRepo, Provisioner } from '../../accounts/index.js';
import type { PlansRepo } from '../../plans/index.js';
import type { ServersService } from '../../servers/index.js';
import type { AddOnsRepo } from '../add-ons/add-ons.repo.js';
import type { BillingRepo, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import type { PaidPeriods } from '../ledger/paid-period.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';

/** What delivering a payment (deliver-purchase.ts, deliver-renewal.ts) works with, and the mark every delivered payment gets. */
export interface FulfilmentDeps {
  db: Db;
  billing: BillingRepo;
  accounts: AccountsRepo;
  provisioner: Provisioner;
  servers: ServersService;
  /** Where a plan may put its accounts (its servers, with their squads or groups). */
  plans: PlansRepo;
  paidPeriods: PaidPeriods;
  periods: PaidPeriodsRepo;
  /** The add-on ledger: what a paid add-on gives, and the panel limit it set. */
  addOns: AddOnsRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Gives back a payment whose account no longer exists (a renewal paid after the account was deleted). */
  refundUndeliverable(transactionId: string, why: string): Promise<void>;
  /** A customer's own record changed (a paid trial delivered: `trialUsed`): their cached sessions read it again. */
  userChanged?(userId: string): void;
}

/** The payment is delivered: a one-off's subscription (or a recurring one's first payment) and, for a recurring invoice, its transaction. */
export async function markFulfilled(deps: FulfilmentDeps, subscription: SubscriptionRecord, transaction: TransactionRecord, trx: Db): Promise<void> {
  const { billing } = deps;
  const now = deps.clock();
  // Read again: the subscription row may have moved on (a later invoice) since the job read it.
  const current = (await billing.findSubscription(subscription.id, trx)) ?? subscription;
  if (!current.metadata.fulfilled_at)
    await billing.updateSubscription(subscription.id, { metadata: { ...current.metadata, fulfilled_at: now.toISOString() } }, now, trx);
  if (subscription.billing === 'recurring')
    await billing.setTransactionMetadata(transaction.id, { ...transaction.metadata, fulfilled_at: now.toISOString() }, now, trx);
}
