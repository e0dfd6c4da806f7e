import { createAddOnsRepo } from '../add-ons/add-ons.repo.js';
import type { WithAccounts } from '../../accounts/index.js';
import { defineModule, type Provided } from '../../module.js';
import type { promoCodesModule } from '../../promo-codes/index.js';
import type { referralsModule } from '../../referrals/index.js';
import type { providerAccountsModule } from '../provider-accounts/provider-accounts.module.js';
import { billingJobHandlers } from '../billing-jobs.js';
import { createNoticeComposer } from '../send-billing-email.js';
import { createBillingService } from '../billing.service.js';
import { createKeptReversalsRepo } from '../refunds/kept-reversals.repo.js';
import { createPaymentReversals } from '../refunds/payment-reversals.js';
import { ledgerJobHandlers } from './ledger-jobs.js';
import { createPaidPeriods } from './paid-period.js';
import { createPlanTrafficRepo } from '../traffic/plan-traffic.repo.js';

/** What billing stands on: the modules before it, its payment providers, and the promo codes and referrals an order uses. */
export type BillingBase = WithAccounts & Provided<typeof providerAccountsModule> & Provided<typeof promoCodesModule> & Provided<typeof referralsModule>;

/**
 * The paid-period ledger: the days each payment bought, what they become when money moves back (reversals), the
 * customer's view of their subscriptions and payments, and the billing e-mails.
 */
export const ledgerModule = defineModule({
  name: 'billing-ledger',
  build(deps: BillingBase) {
    const { clock, log, jobs, billingRepo: billing, periods, accountsRepo: accounts } = deps;
    const planTrafficRepo = createPlanTrafficRepo(deps.db);
    // An account nothing renews runs its plan's grace days past its paid end (billing/traffic).
    const planGraceDays = async (accountId: string) => (await planTrafficRepo.rulesOfAccount(accountId))?.graceDays ?? 0;
    const paidPeriods = createPaidPeriods({ billing, periods, settings: deps.settings, planGraceDays, clock });
    return {
      paidPeriods,
      planTrafficRepo,
      reversals: createPaymentReversals({
        billing,
        periods,
        accounts,
        refunds: deps.refundsRepo,
        kept: createKeptReversalsRepo(),
        jobs,
        notices: deps.notices,
        wallet: deps.walletLedger,
        addOns: createAddOnsRepo(deps.db),
        audit: deps.audit,
        clock,
        log,
      }),
      billing: createBillingService({ billing, paidPeriods, savedMethods: deps.savedMethodsRepo, clock }),
      /** A queued billing notice's message in the customer's language, for channels other than e-mail (the Telegram bot). */
      composeNotice: createNoticeComposer({
        billing,
        periods: deps.periods,
        accounts,
        plans: deps.plansRepo,
        users: deps.usersRepo,
        settings: deps.settings,
        paidPeriods,
        mailer: deps.mailer,
        publicUrl: deps.config.publicUrl,
        clock,
      }),
    };
  },
  jobs: (deps) => {
    const { config, clock, mailer, billingRepo: billing, periods, accountsRepo: accounts, plansRepo: plans, usersRepo: users, settings, paidPeriods } = deps;
    return {
      ...ledgerJobHandlers({ accounts, servers: deps.servers, plans: deps.plansRepo, paidPeriods, notices: deps.notices, clock }),
      ...billingJobHandlers({
        billing,
        periods,
        accounts,
        plans,
        users,
        settings,
        paidPeriods,
        mailer,
        publicUrl: config.publicUrl,
        clock,
        emailWanted: deps.noticeEmailWanted,
      }),
    };
  },
});
