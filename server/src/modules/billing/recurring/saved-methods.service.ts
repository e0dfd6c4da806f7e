import { BILLING_MESSAGES, type SavedPaymentMethod } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import { notFound } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { AuditRepo } from '../../audit/index.js';
import type { UserProfile, Actor } from '../../users/index.js';
import type { BillingRepo } from '../billing.repo.js';
import type { RecurringPayments } from './recurring-payments.js';
import type { SavedMethodRecord, SavedMethodsRepo } from './saved-methods.repo.js';

export const toSavedPaymentMethod = (record: SavedMethodRecord): SavedPaymentMethod => ({
  id: record.id,
  title: record.title,
  createdAt: record.createdAt.toISOString(),
});

/**
 * The cards customers let the store charge again (plans renewed here, store-renewals.ts): listed, and removed. A
 * removed card is never charged again: every plan that renews with it has auto-renew turned off, at once and
 * with the usual e-mail, so it runs to the end of what is paid.
 */
export function createSavedMethodsService(deps: {
  db: Db;
  repo: SavedMethodsRepo;
  billing: BillingRepo;
  recurring: Pick<RecurringPayments, 'applyStateTo'>;
  audit: AuditRepo;
  clock: Clock;
}) {
  return {
    async list(user: UserProfile): Promise<SavedPaymentMethod[]> {
      return (await deps.repo.listForUser(user.id)).map(toSavedPaymentMethod);
    },

    /** Someone else's card (or one removed already) is a 404. */
    async remove(actor: Actor, user: UserProfile, id: string): Promise<{ stoppedRenewing: number }> {
      return deps.db.transaction(async (trx) => {
        const now = deps.clock();
        if (!(await deps.repo.remove(id, user.id, now, trx))) throw notFound(BILLING_MESSAGES.savedMethodNotFound);
        let stopped = 0;
        for (const subscriptionId of await deps.repo.renewingWith(id, trx)) {
          const subscription = await deps.billing.findSubscriptionForUpdate(subscriptionId, trx);
          if (!subscription || subscription.cancelAtPeriodEnd) continue;
          await deps.recurring.applyStateTo(
            subscription,
            { status: subscription.status as 'active' | 'past_due', cancelAtPeriodEnd: true, canceledAt: subscription.canceledAt, observedAt: now },
            trx,
          );
          stopped += 1;
        }
        await deps.audit.record(
          {
            actorId: actor.id,
            actorEmail: actor.email,
            action: 'payment_method.remove',
            targetType: 'payment_method',
            targetId: id,
            details: { userId: user.id, stoppedRenewing: stopped },
            ip: actor.ip ?? null,
            now,
          },
          trx,
        );
        return { stoppedRenewing: stopped };
      });
    },
  };
}

export type SavedMethodsService = ReturnType<typeof createSavedMethodsService>;
