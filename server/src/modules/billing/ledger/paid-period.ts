import type { Clock } from '../../../lib/clock.js';
import type { SettingsService } from '../../settings/index.js';
import type { BillingRepo, SubscriptionRecord } from '../billing.repo.js';
import type { PaidPeriodsRepo } from './paid-periods.repo.js';
import { DAY_MS } from '../../../../../shared/constants.js';

/** What an account is paid for, and what its panel user should say. */
export interface PaidPeriod {
  /** The end of its latest paid period that still counts, from the paid-period ledger (null: nothing paid). */
  paidEnd: Date | null;
  /** Its recurring subscription that will charge again (active or past_due, auto-renew on). */
  renewing: SubscriptionRecord | null;
  /**
   * The panel expiry: the paid end, plus the grace period while a provider's subscription renews it — the
   * renewal charge happens at the period end, and a failed one leaves the customer this long to fix the card.
   * A plan this server renews is charged days before its end instead, so it has no grace. An account nothing
   * renews gets its plan's grace days (`graceDays`, billing/traffic): it keeps running that long after its paid end.
   * The customer is still shown the paid end (accounts' shown-expiry.ts).
   */
  expiresAt: Date | null;
  /** When a past_due subscription's grace period ends (from its first failed charge): the account is paused then unless paid. */
  graceEndsAt: Date | null;
  /**
   * Whether its panel user should run now: paid (the expiry in the future, a past_due subscription's grace not
   * over) and no payment of it disputed. The one rule every change of its panel user by billing applies (the
   * renewal delivered, the paid-period sync after a refund, a dispute or a failed charge).
   */
  runs: boolean;
}

/** The end of a past_due subscription's grace period, counted from its first failed charge. */
export function graceEndOf(subscription: SubscriptionRecord, graceMs: number): Date | null {
  if (subscription.status !== 'past_due') return null;
  const since = subscription.metadata.past_due_since ? new Date(subscription.metadata.past_due_since) : subscription.currentPeriodEnd;
  return since ? new Date(since.getTime() + graceMs) : null;
}

/** Works outside any database transaction (it reads settings): call it from jobs, not from a payment's transaction. */
export function createPaidPeriods(deps: {
  billing: BillingRepo;
  periods: PaidPeriodsRepo;
  settings: SettingsService;
  /** The grace days of the account's plan now (0 without one): how long it runs after its paid end when nothing renews it. */
  planGraceDays: (accountId: string) => Promise<number>;
  clock: Clock;
}) {
  const graceMs = async () => (await deps.settings.getAppSettings()).renewalGraceDays * DAY_MS;

  return {
    graceMs,

    /** `paidUntilIfNone`: the expiry when nothing in the ledger counts any more (where a refunded period began). */
    async of(accountId: string, options: { paidUntilIfNone?: Date | null } = {}): Promise<PaidPeriod> {
      const [paidEnd, renewing, grace, disputed, planGraceDays] = await Promise.all([
        deps.periods.latestEnd(accountId),
        deps.billing.renewingSubscriptionOf(accountId),
        graceMs(),
        deps.billing.hasOpenDispute(accountId),
        deps.planGraceDays(accountId),
      ]);
      // A plan this server renews is charged before its period ends (store-renewals.ts): no grace after it.
      const graced = renewing && renewing.metadata.renewed_by !== 'store' ? renewing : null;
      // Nothing renews it: its plan's own grace days, if it has any.
      const extraMs = graced ? grace : renewing ? 0 : planGraceDays * DAY_MS;
      const paidExpiry = paidEnd && extraMs > 0 ? new Date(paidEnd.getTime() + extraMs) : paidEnd;
      const graceEndsAt = graced ? graceEndOf(graced, grace) : null;
      const expiresAt = paidExpiry ?? options.paidUntilIfNone ?? null;
      const now = deps.clock();
      const paid = expiresAt !== null && expiresAt > now && !(paidExpiry && graceEndsAt && graceEndsAt <= now);
      return { paidEnd, renewing: renewing ?? null, expiresAt, graceEndsAt, runs: paid && !disputed };
    },
  };
}

export type PaidPeriods = ReturnType<typeof createPaidPeriods>;
