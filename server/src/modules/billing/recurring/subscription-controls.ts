import type { FastifyBaseLogger } from 'fastify';
import { BILLING_MESSAGES, type AdminSubscription, type BillingPortalStarted, type Subscription, type SubscriptionStatus } from '../../../../../shared/billing.js';
import { DEFAULT_LOCALE, localizedPath } from '../../../../../shared/locales.js';
import type { Db } from '../../../db/knex.js';
import { AppError, notFound } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import { PaymentProviderError, type PaymentDriver, type RecurringState } from '../../../payments/payment-driver.js';
import type { AuditRepo } from '../../audit/audit.repo.js';
import type { UserProfile } from '../../users/users.repo.js';
import type { Actor } from '../../users/users.service.js';
import type { BillingRepo, SubscriptionRecord } from '../billing.repo.js';
import type { PaidPeriods } from '../ledger/paid-period.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import { customerKeyOfDriver, type PaymentCustomers } from '../provider-accounts/payment-customers.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import type { RecurringPayments } from './recurring-payments.js';
import type { SavedMethodsRepo } from './saved-methods.repo.js';
import { toSavedPaymentMethod } from './saved-methods.service.js';
import type { SubscriptionsAdminRepo } from './subscriptions-admin.repo.js';
import { toAdminSubscription, toSubscription } from '../subscription-presenter.js';

/**
 * What customers and admins do to recurring subscriptions: cancel auto-renew and resume it, cancel now
 * (admin), and open the provider's billing portal. Each change is made at the provider first, and its
 * answer applied here at once (the webhook that follows finds it already applied).
 */
export function createSubscriptionControls(deps: {
  db: Db;
  billing: BillingRepo;
  periods: PaidPeriodsRepo;
  admin: SubscriptionsAdminRepo;
  payments: Pick<PaymentDrivers, 'forSubscription' | 'accounts'>;
  billingAccountOfUser: (userId: string) => Promise<string | null>;
  customers: PaymentCustomers;
  recurring: RecurringPayments;
  /** The cards plans renewed here are charged with. */
  savedMethods: Pick<SavedMethodsRepo, 'findById'>;
  paidPeriods: PaidPeriods;
  audit: AuditRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: URL;
}) {
  const { billing, clock, log } = deps;

  /** The driver of the account that bills the subscription (not necessarily the keys in force). */
  async function driverOf(record: SubscriptionRecord): Promise<PaymentDriver> {
    const found = await deps.payments.forSubscription(record);
    if (!found) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.notConfigured);
    return found;
  }

  /** The provider's answer applied in a transaction of its own; provider failures are a clear 502. */
  async function change(record: SubscriptionRecord, call: (driver: PaymentDriver, ref: string) => Promise<RecurringState>, byAdmin = false): Promise<SubscriptionRecord> {
    const ref = record.providerSubscriptionId!;
    let state: RecurringState;
    try {
      state = await call(await driverOf(record), ref);
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      log.warn({ err, subscriptionId: record.id }, 'recurring: the provider refused or did not answer a subscription change');
      throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.subscriptionChangeFailed);
    }
    await deps.db.transaction((trx) => deps.recurring.applyState(state, trx, { byAdmin }));
    return (await billing.findSubscription(record.id))!;
  }

  /**
   * A plan this server renews (store-renewals.ts) changes here, with no provider to ask: auto-renew off or on
   * (back on only with the card it renews with still saved), or ended now.
   */
  async function changeHere(record: SubscriptionRecord, to: 'cancel_at_period_end' | 'resume' | 'cancel_now', byAdmin = false): Promise<SubscriptionRecord> {
    if (to === 'resume') {
      const method = record.savedMethodId ? await deps.savedMethods.findById(record.savedMethodId) : undefined;
      if (!method || method.removedAt) throw new AppError(409, 'no_saved_method', BILLING_MESSAGES.noSavedMethod);
    }
    await deps.db.transaction(async (trx) => {
      const current = await billing.findSubscriptionForUpdate(record.id, trx);
      if (!current) return;
      const now = clock();
      // Turned back on, the note that it would not renew by itself goes.
      const { error: _noted, ...cleared } = current.metadata;
      await deps.recurring.applyStateTo(to === 'resume' ? { ...current, metadata: cleared } : current, {
        status: to === 'cancel_now' ? 'canceled' : current.status as RecurringState['status'], cancelAtPeriodEnd: to !== 'resume', canceledAt: to === 'cancel_now' ? now : current.canceledAt, observedAt: now,
      }, trx, { byAdmin });
    });
    return (await billing.findSubscription(record.id))!;
  }

  const renewedHere = (record: SubscriptionRecord) => record.metadata.renewed_by === 'store';

  /** Only a recurring subscription that has started and not ended can be changed. */
  function assertChangeable(record: SubscriptionRecord): void {
    if (record.billing !== 'recurring') throw new AppError(409, 'not_recurring', BILLING_MESSAGES.oneOffNotCancelable);
    const live: SubscriptionStatus[] = ['active', 'past_due'];
    const started = record.providerSubscriptionId || (renewedHere(record) && record.currentPeriodEnd);
    if (!started || !live.includes(record.status)) throw new AppError(409, 'not_renewing', BILLING_MESSAGES.notRenewing);
  }

  /**
   * A one-off renewal bought while auto-renew was off starts where this subscription's period ends (see
   * payment-confirmation.ts): turned back on, its next charge would pay those days a second time. So it
   * stays off; the account runs on what it paid for and is renewed by hand. (An invoice that comes anyway,
   * auto-renew turned on at the provider, is held for review by recurring-payments.ts.)
   */
  async function assertNotPaidAhead(record: SubscriptionRecord): Promise<void> {
    if (!record.vpnAccountId || !record.currentPeriodEnd) return;
    const span = { vpnAccountId: record.vpnAccountId, billing: 'recurring' as const, startsAt: record.currentPeriodEnd, endsAt: new Date(Date.UTC(9999, 0, 1)) };
    const paidAhead = await deps.periods.overlapping(span, deps.db);
    if (paidAhead) throw new AppError(409, 'paid_ahead', BILLING_MESSAGES.paidAheadByOneOff);
  }

  async function present(record: SubscriptionRecord): Promise<Subscription> {
    const method = record.savedMethodId ? await deps.savedMethods.findById(record.savedMethodId) : undefined;
    const saved = method && !method.removedAt ? new Map([[method.id, toSavedPaymentMethod(method)]]) : undefined;
    return toSubscription(record, clock(), await deps.paidPeriods.graceMs(), saved);
  }

  async function ownSubscription(user: UserProfile, id: string): Promise<SubscriptionRecord> {
    const record = await billing.findSubscriptionForUser(id, user.id);
    if (!record) throw notFound(BILLING_MESSAGES.subscriptionNotFound);
    return record;
  }

  const audit = (actor: Actor, action: string, record: SubscriptionRecord, details: Record<string, unknown>) =>
    deps.audit.record({ actorId: actor.id, actorEmail: actor.email, action, targetType: 'subscription', targetId: record.id, details: { userId: record.userId, ...details }, ip: actor.ip ?? null, now: clock() });

  return {
    /** Auto-renew off: no further charge; the account runs to the end of what is paid. */
    async cancel(user: UserProfile, id: string): Promise<Subscription> {
      const record = await ownSubscription(user, id);
      assertChangeable(record);
      if (record.cancelAtPeriodEnd) return present(record);
      if (renewedHere(record)) return present(await changeHere(record, 'cancel_at_period_end'));
      return present(await change(record, (d, ref) => d.setCancelAtPeriodEnd(ref, true)));
    },

    /** Auto-renew back on, while the paid period has not ended. */
    async resume(user: UserProfile, id: string): Promise<Subscription> {
      const record = await ownSubscription(user, id);
      assertChangeable(record);
      if (!record.cancelAtPeriodEnd) return present(record);
      await assertNotPaidAhead(record);
      if (renewedHere(record)) return present(await changeHere(record, 'resume'));
      return present(await change(record, (d, ref) => d.setCancelAtPeriodEnd(ref, false)));
    },

    /**
     * The provider's page for the caller's card and invoices, at the account that bills the caller's
     * subscription (else the keys in force); the customer comes back to the dashboard.
     */
    async openPortal(user: UserProfile): Promise<BillingPortalStarted> {
      const current = await deps.payments.accounts.forAccount('card', await deps.billingAccountOfUser(user.id));
      if (!current) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.notConfigured);
      try {
        const customer = await deps.customers.find(user.id, await customerKeyOfDriver(current));
        if (!customer) throw new AppError(409, 'no_billing_account', BILLING_MESSAGES.noBillingAccount);
        const locale = user.locale ?? DEFAULT_LOCALE;
        return { url: await current.openBillingPortal(customer.customerRef, new URL(localizedPath(locale, '/dashboard'), deps.publicUrl).href, locale) };
      } catch (err) {
        if (!(err instanceof PaymentProviderError)) throw err;
        log.warn({ err, userId: user.id }, 'recurring: the billing portal could not be opened');
        throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.portalFailed);
      }
    },

    /**
     * Before an account is deleted: its recurring subscription is ended at the provider, so nobody is
     * charged for an account that is gone. A provider that does not answer refuses the deletion.
     */
    async endForDeletedAccount(accountId: string): Promise<void> {
      const renewing = await billing.renewingSubscriptionOf(accountId);
      if (renewing && renewedHere(renewing)) {
        await changeHere(renewing, 'cancel_now');
        return;
      }
      if (!renewing?.providerSubscriptionId) return;
      try {
        await change(renewing, (d, ref) => d.cancelNow(ref));
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 502) throw new AppError(503, 'payment_provider_error', BILLING_MESSAGES.subscriptionChangeFailed);
        throw err;
      }
    },

    async listForAdmin(filter: { status?: SubscriptionStatus; email?: string; unreadable?: boolean; limit: number }): Promise<AdminSubscription[]> {
      const [rows, grace] = await Promise.all([deps.admin.list(filter), deps.paidPeriods.graceMs()]);
      const now = clock();
      return rows.map((row) => toAdminSubscription(row, now, grace));
    },

    /** The admin ends a subscription now, or at its period end; the customer is told by e-mail. */
    async cancelForAdmin(actor: Actor, id: string, when: 'now' | 'period_end'): Promise<AdminSubscription> {
      const record = await billing.findSubscription(id);
      if (!record) throw notFound(BILLING_MESSAGES.subscriptionNotFound);
      assertChangeable(record);
      const changed = when === 'now'
        ? renewedHere(record) ? await changeHere(record, 'cancel_now', true) : await change(record, (d, ref) => d.cancelNow(ref), true)
        : record.cancelAtPeriodEnd ? record : renewedHere(record) ? await changeHere(record, 'cancel_at_period_end', true) : await change(record, (d, ref) => d.setCancelAtPeriodEnd(ref, true), true);
      await audit(actor, when === 'now' ? 'subscription.cancel_now' : 'subscription.cancel_at_period_end', record, {});
      const [row] = await deps.admin.list({ id, limit: 1 });
      return toAdminSubscription({ record: changed, userEmail: row?.userEmail ?? '', username: row?.username ?? null, read: row?.read ?? null }, clock(), await deps.paidPeriods.graceMs());
    },
  };
}

export type SubscriptionControls = ReturnType<typeof createSubscriptionControls>;
