import type { FastifyBaseLogger } from 'fastify';
import type { EndAccountSubscriptionsResult, ProviderAccountSummary } from '../../../../../shared/billing.js';
import { AppError, notFound } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { AuditRepo } from '../../audit/index.js';
import type { Actor } from '../../users/index.js';
import type { AccountDrivers } from './account-drivers.js';
import { methodOfProvider } from './payment-drivers.js';
import type { ProviderAccountsRepo, ProviderAccountUsage } from './provider-accounts.repo.js';
import type { SubscriptionControls } from '../recurring/subscription-controls.js';

/**
 * The admin's view of the provider accounts that took payments: how many subscriptions each still bills,
 * and ending them at an account switched away from (Stripe cannot move a subscription to another account:
 * the customer subscribes again at the account in force when the period ends).
 */
export function createProviderAccountsService(deps: {
  repo: ProviderAccountsRepo;
  drivers: Pick<AccountDrivers, 'inForceAccountId' | 'methods'>;
  controls: Pick<SubscriptionControls, 'cancelForAdmin'>;
  audit: AuditRepo;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  async function inForceIds(): Promise<Set<string>> {
    const ids = await Promise.all(deps.drivers.methods().map((method) => deps.drivers.inForceAccountId(method)));
    return new Set(ids.filter((id): id is string => id !== null));
  }

  const toSummary = (row: ProviderAccountUsage, inForce: Set<string>): ProviderAccountSummary => ({
    id: row.id,
    method: methodOfProvider(row.provider),
    account: row.accountRef,
    inForce: inForce.has(row.id),
    liveSubscriptions: row.liveSubscriptions,
    renewingSubscriptions: row.renewingSubscriptions,
  });

  async function summaryOf(id: string): Promise<ProviderAccountSummary | undefined> {
    const [rows, inForce] = await Promise.all([deps.repo.listWithUsage(), inForceIds()]);
    const row = rows.find((entry) => entry.id === id);
    return row && toSummary(row, inForce);
  }

  return {
    async list(): Promise<ProviderAccountSummary[]> {
      const [rows, inForce] = await Promise.all([deps.repo.listWithUsage(), inForceIds()]);
      return rows.map((row) => toSummary(row, inForce));
    },

    /**
     * Ends every subscription an account switched away from will charge again, each at the account that
     * bills it (its customer is told, as for any admin cancel). One the provider does not answer for is
     * counted as failed and can be ended by asking again. The account in force is refused (409).
     */
    async endSubscriptions(actor: Actor, id: string, when: 'now' | 'period_end'): Promise<EndAccountSubscriptionsResult> {
      const before = await summaryOf(id);
      if (!before) throw notFound('Payment provider account not found');
      if (before.inForce)
        throw new AppError(409, 'account_in_force', 'New payments go to this account: switch the keys to another account before ending its subscriptions.');
      let ended = 0;
      let failed = 0;
      for (const subscriptionId of await deps.repo.listRenewingSubscriptionIds(id)) {
        try {
          await deps.controls.cancelForAdmin(actor, subscriptionId, when);
          ended += 1;
        } catch (err) {
          if (!(err instanceof AppError) || err.statusCode < 500) throw err;
          deps.log.warn({ err, subscriptionId, providerAccountId: id }, 'payments: a subscription of an old account could not be ended');
          failed += 1;
        }
      }
      await deps.audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'payments.account.end_subscriptions',
        targetType: 'provider_account',
        targetId: id,
        details: { account: before.account, when, ended, failed },
        ip: actor.ip ?? null,
        now: deps.clock(),
      });
      return { account: (await summaryOf(id))!, ended, failed };
    },
  };
}

export type ProviderAccountsService = ReturnType<typeof createProviderAccountsService>;
