import { addSeconds, type Clock } from '../../../lib/clock.js';
import type { AccountsRepo } from '../../accounts/index.js';
import type { BillingRepo } from '../billing.repo.js';
import type { BillingNotices } from '../billing-notices.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import type { RenewalScheduleRepo } from './renewal-schedule.repo.js';
import { chargeDateOf, STORE_RENEWAL } from './store-renewal-schedule.js';
import type { SettingsService } from '../../settings/index.js';
import type { JobHandler } from '../../../jobs/worker.js';
import { STARS_PROVIDER_NAME } from '../provider-accounts/payment-providers.repo.js';

export const SEND_RENEWAL_REMINDERS = 'send_renewal_reminders';
/** Reminders go out 3 days ahead; the pass runs hourly, and each reminder's dedupe key makes it once per period. */
export const REMINDERS = { aheadSeconds: 3 * 24 * 3600, intervalSeconds: 3600 } as const;

/**
 * 3 days before a recurring subscription is charged: "your subscription renews on …". 3 days before a
 * one-off plan's last paid period ends: "your plan ends in 3 days — renew". Off when the admin turns
 * reminders off.
 */
export function createSendRenewalRemindersHandler(deps: {
  schedule: RenewalScheduleRepo;
  billing: BillingRepo;
  periods: PaidPeriodsRepo;
  accounts: AccountsRepo;
  notices: BillingNotices;
  settings: SettingsService;
  clock: Clock;
}): JobHandler {
  return async () => {
    const now = deps.clock();
    const next = { runAgainAt: addSeconds(now, REMINDERS.intervalSeconds) };
    if (!(await deps.settings.getAppSettings()).renewalReminders) return { ...next, note: 'reminders are switched off' };
    const until = addSeconds(now, REMINDERS.aheadSeconds);
    // A plan renewed here is charged days before its period ends (store-renewals.ts): it is reminded of that day.
    const early = STORE_RENEWAL.firstTryDaysBefore * 24 * 3600;
    // A Telegram Stars subscription is charged by Telegram from the customer's Stars: the reminder (a card on file, its
    // billing page) does not describe it, so none is sent.
    const renewing = [
      ...(await deps.schedule.listRenewalsDue(now, until)).filter(
        (subscription) => subscription.metadata.renewed_by !== 'store' && subscription.providerName !== STARS_PROVIDER_NAME,
      ),
      ...(await deps.schedule.listRenewalsDue(addSeconds(now, early), addSeconds(until, early))).filter(
        (subscription) => subscription.metadata.renewed_by === 'store',
      ),
    ];
    for (const subscription of renewing) {
      const chargeAt = chargeDateOf(subscription, subscription.currentPeriodEnd!).toISOString();
      await deps.notices.notify({ kind: 'renewal_reminder', subscriptionId: subscription.id, chargeAt }, `${subscription.id}:${chargeAt}`);
    }
    for (const period of await deps.schedule.listOneOffEnding(now, until)) {
      const accountId = period.vpnAccountId!;
      const account = await deps.accounts.findById(accountId);
      const last = await deps.periods.latestEnd(accountId);
      // Only the account's last paid period ends the service; a renewing account is told about its charge instead.
      if (!account || account.status !== 'active' || last?.getTime() !== period.currentPeriodEnd!.getTime()) continue;
      // Set to renew from the balance: it renews by itself, or its customer is told the balance is short (wallet-renewals.ts).
      if (account.walletAutoRenew) continue;
      if (await deps.billing.renewingSubscriptionOf(accountId)) continue;
      const endsAt = period.currentPeriodEnd!.toISOString();
      await deps.notices.notify({ kind: 'plan_ending', accountId, endsAt }, `${accountId}:${endsAt}`);
    }
    return next;
  };
}
