import type { FastifyBaseLogger } from 'fastify';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { BILLING_MESSAGES } from '../../../../shared/billing.js';
import { AppError, notFound } from '../../errors.js';
import type { JobHandler } from '../../jobs/worker.js';
import { addSeconds, type Clock } from '../../lib/clock.js';
import type { AccountRecord, AccountsRepo, AccountsService } from '../accounts/index.js';
import type { CreditSpending } from '../credit/index.js';
import type { BillingNotices, BillingRepo, CheckoutService } from '../billing/index.js';
import { isPurchasable } from '../plans/index.js';
import type { SettingsService } from '../settings/index.js';
import type { UserProfile, UsersRepo } from '../users/index.js';

export const SCAN_WALLET_RENEWALS = 'scan_wallet_renewals';

const HOUR_MS = 3600_000;
/**
 * An account set to renew from the balance renews a day before it ends; 3 days before, a customer whose balance
 * will not cover it is e-mailed with a top-up link (once per period), and again if the renewal finds it short.
 */
export const WALLET_RENEWAL = { renewHoursBefore: 24, warnHoursBefore: 72, scanSeconds: 600, perPass: 500 } as const;

/** When the account's paid time ends: its paid-period ledger, else (an account an admin made) its expiry. */
const endOf = (account: AccountRecord): Date | null => account.paidUntil ?? account.expireDate;

/**
 * Auto-renew from the balance, for any account whose plan is on sale and that no provider subscription renews:
 * the customer turns it on or off (`POST /api/accounts/:id/auto-renew`); a periodic scan renews each such account
 * from its customer's wallet a day before it ends, once per period (the renewal order is named by the account and
 * the period: checkout.service.ts renewFromWallet), and says ahead when the balance will not cover it.
 */
export function createWalletRenewals(deps: {
  accounts: AccountsRepo;
  accountsService: Pick<AccountsService, 'findAccount'>;
  users: Pick<UsersRepo, 'findById'>;
  billing: Pick<BillingRepo, 'renewingSubscriptionOf'>;
  checkout: Pick<CheckoutService, 'renewFromWallet'>;
  credit: Pick<CreditSpending, 'available'>;
  settings: SettingsService;
  notices: BillingNotices;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  const { accounts, clock } = deps;

  /** An account can renew from the balance: its plan is on sale, and no provider subscription renews it already. */
  async function assertRenewable(account: AccountRecord): Promise<void> {
    const { trialPlanId } = await deps.settings.getAppSettings();
    if (account.status === 'suspended' || !account.plan || !isPurchasable(account.plan, trialPlanId)) {
      throw new AppError(409, 'not_renewable', "This account's plan is no longer on sale, so it cannot be renewed. Buy a new plan instead.");
    }
    if (await deps.billing.renewingSubscriptionOf(account.id)) throw new AppError(409, 'already_renews', BILLING_MESSAGES.alreadyRenews);
  }

  /** The balance short of the account's renewal, and what it costs (0 short when it covers it). */
  async function shortfall(account: AccountRecord, now: Date): Promise<{ price: number; needed: number; currency: string }> {
    const { currency } = await deps.settings.getAppSettings();
    const price = account.plan?.price ?? 0;
    const available = await deps.credit.available(account.userId, currency, now);
    return { price, needed: Math.max(0, price - available), currency };
  }

  /** What the scan does for one account whose paid time ends at `end`, within the next 3 days. */
  async function handle(account: AccountRecord, end: Date, now: Date): Promise<'renewed' | 'short' | 'warned' | 'waiting' | 'skipped'> {
    const endsAt = end.toISOString();
    if (end.getTime() - now.getTime() > WALLET_RENEWAL.renewHoursBefore * HOUR_MS) {
      const { price, needed, currency } = await shortfall(account, now);
      if (needed === 0) return 'waiting';
      await deps.notices.notify(
        { kind: 'wallet_renewal_short', accountId: account.id, endsAt, price, needed, currency, final: false },
        `${account.id}:${endsAt}:ahead`,
      );
      return 'warned';
    }
    const user = await deps.users.findById(account.userId);
    if (!user) return 'skipped';
    let result;
    try {
      result = await deps.checkout.renewFromWallet(user, account.id, end);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Its plan went off sale, or a provider subscription renews it now: it is renewed some other way, or not.
      deps.log.warn({ accountId: account.id, code: err.code }, 'wallet renewal: the account cannot be renewed from the balance');
      await deps.notices.notify({ kind: 'plan_ending', accountId: account.id, endsAt }, `${account.id}:${endsAt}`);
      return 'skipped';
    }
    if (result.renewed) {
      deps.log.info({ accountId: account.id, orderId: result.orderId }, 'wallet renewal: renewed from the balance');
      return 'renewed';
    }
    const { price, currency } = await shortfall(account, now);
    await deps.notices.notify(
      { kind: 'wallet_renewal_short', accountId: account.id, endsAt, price, needed: result.needed, currency, final: true },
      `${account.id}:${endsAt}:final`,
    );
    return 'short';
  }

  /** Every account set to renew from the balance that ends within 3 days: renewed, warned, or left to wait. */
  async function scan(): Promise<Record<string, number>> {
    const now = clock();
    const due = await accounts.listWalletRenewalsDue(now, new Date(now.getTime() + WALLET_RENEWAL.warnHoursBefore * HOUR_MS), WALLET_RENEWAL.perPass);
    const counts: Record<string, number> = {};
    for (const account of due) {
      const end = endOf(account);
      if (!end) continue;
      const outcome = await handle(account, end, now);
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
    return counts;
  }

  return {
    scan,

    /** Turns auto-renew from the balance on or off for the caller's account (someone else's is a 404). */
    async setAutoRenew(user: UserProfile, accountId: string, enabled: boolean): Promise<VpnAccount> {
      const account = await accounts.findForUser(accountId, user.id);
      if (!account) throw notFound('Account not found');
      if (enabled) await assertRenewable(account);
      if (account.walletAutoRenew !== enabled) {
        const now = clock();
        await accounts.setWalletAutoRenew(account.id, user.id, enabled, now);
        await accounts.insertLog({ accountId: account.id, userId: user.id, step: 'wallet_auto_renew', status: 'success', details: { enabled }, now });
      }
      return (await deps.accountsService.findAccount(user.id, account.id))!;
    },

    handlers: {
      [SCAN_WALLET_RENEWALS]: (async () => {
        const counts = await scan();
        const note = Object.entries(counts)
          .map(([outcome, n]) => `${n} ${outcome}`)
          .join(', ');
        return { runAgainAt: addSeconds(clock(), WALLET_RENEWAL.scanSeconds), note: note || null };
      }) satisfies JobHandler,
    },
  };
}

export type WalletRenewals = ReturnType<typeof createWalletRenewals>;
