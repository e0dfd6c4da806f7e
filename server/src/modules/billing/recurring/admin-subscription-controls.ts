import { BILLING_MESSAGES, type AdminSubscription, type SubscriptionStatus } from '../../../../../shared/billing.js';
import { AppError, notFound } from '../../../errors.js';
import type { Actor } from '../../users/index.js';
import type { SubscriptionRecord } from '../billing.repo.js';
import { toAdminSubscription } from '../subscription-presenter.js';
import { assertChangeable, change, changeHere, renewedHere } from './subscription-changes.js';
import type { SubscriptionControlsDeps } from './subscription-controls-deps.js';

/** Subscriptions ended from the admin's side: the admin's list and cancel, and the end of a deleted account's subscription. */

const audit = (deps: SubscriptionControlsDeps, actor: Actor, action: string, record: SubscriptionRecord, details: Record<string, unknown>) =>
  deps.audit.record({
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    targetType: 'subscription',
    targetId: record.id,
    details: { userId: record.userId, ...details },
    ip: actor.ip ?? null,
    now: deps.clock(),
  });

/**
 * Before an account is deleted: its recurring subscription is ended at the provider, so nobody is
 * charged for an account that is gone. A provider that does not answer refuses the deletion.
 */
export async function endForDeletedAccount(deps: SubscriptionControlsDeps, accountId: string): Promise<void> {
  const renewing = await deps.billing.renewingSubscriptionOf(accountId);
  if (renewing && renewedHere(renewing)) {
    await changeHere(deps, renewing, 'cancel_now');
    return;
  }
  if (!renewing?.providerSubscriptionId) return;
  try {
    await change(deps, renewing, (d, ref) => d.cancelNow(ref));
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 502) throw new AppError(503, 'payment_provider_error', BILLING_MESSAGES.subscriptionChangeFailed);
    throw err;
  }
}

export async function listForAdmin(
  deps: SubscriptionControlsDeps,
  filter: { status?: SubscriptionStatus; email?: string; unreadable?: boolean; limit: number },
): Promise<AdminSubscription[]> {
  const [rows, grace] = await Promise.all([deps.admin.list(filter), deps.paidPeriods.graceMs()]);
  const now = deps.clock();
  return rows.map((row) => toAdminSubscription(row, now, grace));
}

/** The admin ends a subscription now, or at its period end; the customer is told by e-mail. */
export async function cancelForAdmin(deps: SubscriptionControlsDeps, actor: Actor, id: string, when: 'now' | 'period_end'): Promise<AdminSubscription> {
  const { billing, clock } = deps;
  const record = await billing.findSubscription(id);
  if (!record) throw notFound(BILLING_MESSAGES.subscriptionNotFound);
  assertChangeable(record);
  const changed =
    when === 'now'
      ? renewedHere(record)
        ? await changeHere(deps, record, 'cancel_now', true)
        : await change(deps, record, (d, ref) => d.cancelNow(ref), true)
      : record.cancelAtPeriodEnd
        ? record
        : renewedHere(record)
          ? await changeHere(deps, record, 'cancel_at_period_end', true)
          : await change(deps, record, (d, ref) => d.setCancelAtPeriodEnd(ref, true), true);
  await audit(deps, actor, when === 'now' ? 'subscription.cancel_now' : 'subscription.cancel_at_period_end', record, {});
  const [row] = await deps.admin.list({ id, limit: 1 });
  return toAdminSubscription(
    { record: changed, userEmail: row?.userEmail ?? '', username: row?.username ?? null, read: row?.read ?? null },
    clock(),
    await deps.paidPeriods.graceMs(),
  );
}
