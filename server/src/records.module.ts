import { platformModule } from './platform.module.js';
import { createAccountsRepo } from './modules/accounts/accounts.repo.js';
import { createBillingRepo } from './modules/billing/billing.repo.js';
import { createPaidPeriodsRepo } from './modules/billing/ledger/paid-periods.repo.js';
import { createPaymentProvidersRepo } from './modules/billing/provider-accounts/payment-providers.repo.js';
import { createProviderAccountsRepo } from './modules/billing/provider-accounts/provider-accounts.repo.js';
import { createSavedMethodsRepo } from './modules/billing/recurring/saved-methods.repo.js';
import { createSubscriptionsAdminRepo } from './modules/billing/recurring/subscriptions-admin.repo.js';
import { createRefundsRepo } from './modules/billing/refunds/refunds.repo.js';
import { defineModule, type Core, type Provided } from './modules/module.js';
import { createPlansRepo } from './modules/plans/plans.repo.js';
import { createReferralsRepo } from './modules/referrals/referrals.repo.js';
import { createServersRepo } from './modules/servers/servers.repo.js';
import { createSettingsRepo } from './modules/settings/settings.repo.js';
import { createBotTokenReader } from './modules/telegram/bot-token.js';
import { createNoticeEmailChoice } from './modules/telegram/telegram-reach.js';
import { createWalletLedger, createWalletLedgerRepo } from './modules/credit/index.js';
import type { metricsModule } from './modules/metrics/index.js';

/**
 * The tables several modules read and write (a module's own tables are built in its own manifest), and the
 * wallet's ledger that every payment, refund and renewal writes to.
 */
export const recordsModule = defineModule({
  name: 'records',
  build({ db, keys, events, audit }: Core & Provided<typeof platformModule>) {
    const walletLedgerRepo = createWalletLedgerRepo(db);
    return {
      plansRepo: createPlansRepo(db),
      serversRepo: createServersRepo(db),
      accountsRepo: createAccountsRepo(db),
      // Every payment's status change is told in the same database transaction (referral credit moves with it).
      billingRepo: createBillingRepo(db, {
        onTransition: (transaction, event, now, trx) => events.emit('transaction.transitioned', { transaction, event, now, trx }),
      }),
      periods: createPaidPeriodsRepo(db),
      settingsRepo: createSettingsRepo(db),
      paymentProviders: createPaymentProvidersRepo(db),
      providerAccountsRepo: createProviderAccountsRepo(db),
      referralsRepo: createReferralsRepo(db),
      walletLedgerRepo,
      walletLedger: createWalletLedger({ repo: walletLedgerRepo, audit }),
      refundsRepo: createRefundsRepo(db),
      savedMethodsRepo: createSavedMethodsRepo(db),
      subscriptionsAdmin: createSubscriptionsAdminRepo(db),
      // The Telegram Stars payments are the store's bot's: billing reads its token before the Telegram module is built.
      telegramBotToken: createBotTokenReader(db, keys),
      // A customer may take their billing notices by Telegram only: billing asks before each e-mail, for the same reason.
      noticeEmailWanted: createNoticeEmailChoice(db),
    };
  },
});

/** What the modules after these two are built on. */
export type Records = Core & Provided<typeof platformModule> & Provided<typeof recordsModule>;

/** What every module after these may use: the records, and the metrics they count what they do on. */
export type Foundation = Records & Provided<typeof metricsModule>;
