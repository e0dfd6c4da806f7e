import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import { PermanentJobError } from '../../../jobs/worker.js';
import type { Clock } from '../../../lib/clock.js';
import { crashPoint } from '../../../lib/crash-points.js';
import { generateSubToken, generateUsername } from '../../accounts/account-values.js';
import type { AccountRecord, AccountsRepo } from '../../accounts/accounts.repo.js';
import { provisionedFields, type Provisioner } from '../../accounts/provisioning.js';
import type { ServersService } from '../../servers/servers.service.js';
import type { BillingRepo, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import type { PaidPeriods } from '../ledger/paid-period.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';

/**
 * Delivers what a succeeded payment bought: a purchase creates the panel user for the waiting
 * account; a renewal extends the same panel user. Safe to run again after a crash at any point: the
 * panel create adopts a user carrying our marker, extend sets absolute values, and `fulfilled_at`
 * ends it.
 */
export function createFulfilment(deps: {
  db: Db;
  billing: BillingRepo;
  accounts: AccountsRepo;
  provisioner: Provisioner;
  servers: ServersService;
  paidPeriods: PaidPeriods;
  periods: PaidPeriodsRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Gives back a payment whose account no longer exists (a renewal paid after the account was deleted). */
  refundUndeliverable(transactionId: string, why: string): Promise<void>;
}) {
  const { billing, accounts, clock } = deps;

  /** The payment is delivered: a one-off's subscription (or a recurring one's first payment) and, for a recurring invoice, its transaction. */
  async function markFulfilled(subscription: SubscriptionRecord, transaction: TransactionRecord, trx: Db): Promise<void> {
    const now = clock();
    // Read again: the subscription row may have moved on (a later invoice) since the job read it.
    const current = (await billing.findSubscription(subscription.id, trx)) ?? subscription;
    if (!current.metadata.fulfilled_at) await billing.updateSubscription(subscription.id, { metadata: { ...current.metadata, fulfilled_at: now.toISOString() } }, now, trx);
    if (subscription.billing === 'recurring') await billing.setTransactionMetadata(transaction.id, { ...transaction.metadata, fulfilled_at: now.toISOString() }, now, trx);
  }

  /** The purchase's waiting account; a new one when a failed-then-paid payment had it removed. */
  async function waitingAccount(subscription: SubscriptionRecord): Promise<AccountRecord> {
    const existing = subscription.vpnAccountId ? await accounts.findById(subscription.vpnAccountId) : undefined;
    if (existing) return existing;
    const id = randomUUID();
    await deps.db.transaction(async (trx) => {
      await accounts.insertPending({
        id, userId: subscription.userId, planId: subscription.planId, username: generateUsername(), subToken: generateSubToken(), trialUserId: null,
        deviceLimit: subscription.metadata.device_limit ?? null,
      }, clock(), trx);
      await billing.updateSubscription(subscription.id, { vpnAccountId: id }, clock(), trx);
      // The period this payment bought was recorded with no account to go to: it is this one's.
      await deps.periods.assignAccount(subscription.id, id, clock(), trx);
    });
    return (await accounts.findById(id))!;
  }

  /**
   * The provisioner writes the server and username on the row before each panel call (intent before
   * side effect). A later attempt (after a crash or a failure) starts on that recorded server with that
   * username, so the user an earlier attempt created there is adopted (it carries our marker) rather
   * than created a second time; a cleanup job removes it if the account ends up elsewhere.
   */
  async function provisionPurchase(subscription: SubscriptionRecord, transaction: TransactionRecord): Promise<void> {
    const account = await waitingAccount(subscription);
    if (account.status !== 'suspended' || account.subscriptionUrl !== null) {
      await deps.db.transaction((trx) => markFulfilled(subscription, transaction, trx));
      return;
    }
    // The paid end in the ledger (a recurring plan's plus the grace period: the renewal is charged at the end).
    const { expiresAt } = await deps.paidPeriods.of(account.id);
    // Never an account without an end: a succeeded payment always has its period in the ledger.
    if (!expiresAt) throw new PermanentJobError(`Account ${account.id} has no paid period; transaction ${transaction.id} cannot be delivered`);
    const { metadata } = subscription;
    const candidates = await deps.provisioner.candidateServers(metadata.locations);
    await crashPoint('fulfil:before-provision');
    // Throws while no panel answers: the job tries again later, with the same username and marker.
    const result = await deps.provisioner.provision(
      {
        accountId: account.id, userId: subscription.userId, username: account.username, dataLimitBytes: metadata.data_limit,
        expiresAt, resumeServerId: account.provisioningServerId,
      },
      candidates,
    );
    const saved = await deps.db.transaction(async (trx) => {
      const now = clock();
      if (!(await accounts.markProvisioned(account.id, provisionedFields(result), now, trx))) return false;
      await markFulfilled(subscription, transaction, trx);
      await accounts.insertLog({ accountId: account.id, userId: subscription.userId, step: 'account_created', status: 'success', details: { serverId: result.server.id, username: result.username, subscriptionId: subscription.id }, now }, trx);
      return true;
    });
    if (!saved) {
      // The row stopped waiting meanwhile (a payment failure removed it): this user is nobody's.
      await deps.provisioner.releaseCreated(account.id, result);
      throw new Error(`The account ${account.id} stopped waiting while its panel user was created; trying again`);
    }
    await crashPoint('fulfil:after-save');
  }

  async function renew(subscription: SubscriptionRecord, transaction: TransactionRecord): Promise<void> {
    const transactionId = transaction.id;
    const account = subscription.vpnAccountId ? await accounts.findById(subscription.vpnAccountId) : undefined;
    if (!account) {
      // Deleted while its renewal was being paid: nothing can be delivered, so the money goes back.
      await deps.refundUndeliverable(transactionId, 'The account was deleted before its renewal could be applied.');
      await deps.db.transaction(async (trx) => {
        await markFulfilled(subscription, transaction, trx);
        await accounts.insertLog({ accountId: null, userId: subscription.userId, step: 'renewal_refunded', status: 'success', details: { transactionId, subscriptionId: subscription.id, reason: 'account deleted' }, now: clock() }, trx);
      });
      return;
    }
    const server = account.masterServerId ? await deps.servers.findServerRecord(account.masterServerId) : undefined;
    if (!server) throw new PermanentJobError(`The server of account ${account.id} no longer exists; its renewal cannot be applied.`);
    // Every paid period of this account counts, so renewals applied in any order end at the latest
    // (plus the grace period while a subscription renews it).
    const period = await deps.paidPeriods.of(account.id);
    const { expiresAt } = period;
    if (!expiresAt) throw new PermanentJobError(`Account ${account.id} has no paid period; renewal ${transactionId} cannot be applied`);
    const driver = deps.servers.driverFor(server);
    await driver.extendAccount(account.username, { expiresAt, dataLimitBytes: subscription.metadata.data_limit });
    await crashPoint('renew:after-extend');
    let panel = await driver.resetUsage(account.username);
    // Paused for non-payment (or by its period running out): paid again, it runs again, unless a payment of it is disputed.
    if (panel.status === 'disabled' && period.runs && !(await billing.hasOpenDispute(account.id))) panel = await driver.setEnabled(account.username, true);
    await deps.db.transaction(async (trx) => {
      const now = clock();
      await accounts.updateUsage(account.id, {
        status: panel.status, usedTrafficBytes: panel.usedTrafficBytes, expireDate: panel.expiresAt,
        dataLimitBytes: panel.dataLimitBytes ?? 0, links: panel.links ?? account.links,
      }, now, trx);
      // Renewed onto the plan it was bought on: that plan's device limit (orders from before device limits leave it).
      if (subscription.metadata.device_limit !== undefined) await accounts.setDeviceLimit(account.id, subscription.metadata.device_limit, now, trx);
      await markFulfilled(subscription, transaction, trx);
      await accounts.insertLog({ accountId: account.id, userId: subscription.userId, step: 'account_renewed', status: 'success', details: { serverId: server.id, username: account.username, expiresAt: expiresAt.toISOString(), subscriptionId: subscription.id }, now }, trx);
    });
  }

  return {
    /** Runs for a succeeded transaction; throws to be tried again. */
    async fulfil(transactionId: string): Promise<void> {
      const transaction = await billing.findTransaction(transactionId);
      if (!transaction) throw new PermanentJobError(`Transaction ${transactionId} does not exist`);
      // Refunded (or disputed) before it was delivered: there is nothing to deliver.
      if (transaction.status === 'refunded' || transaction.status === 'disputed') return;
      if (transaction.status !== 'succeeded') throw new PermanentJobError(`Transaction ${transactionId} is ${transaction.status}, not paid`);
      const subscription = await billing.findSubscription(transaction.subscriptionId);
      if (!subscription) throw new PermanentJobError(`Subscription ${transaction.subscriptionId} does not exist`);
      // A recurring subscription is delivered invoice by invoice: its first provisions, each later one extends.
      const recurring = subscription.billing === 'recurring';
      if (recurring ? transaction.metadata.fulfilled_at : subscription.metadata.fulfilled_at) return;
      const kind = recurring ? transaction.metadata.kind : subscription.metadata.kind;
      if (kind === 'renewal') await renew(subscription, transaction);
      else await provisionPurchase(subscription, transaction);
    },
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;
