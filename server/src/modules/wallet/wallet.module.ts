import type { WithBilling } from '../billing/index.js';
import { defineModule, route } from '../module.js';
import { createWalletRenewals, SCAN_WALLET_RENEWALS } from './wallet-renewals.js';
import { adminWalletRoutes, walletRoutes } from './wallet.routes.js';
import { createWalletService } from './wallet.service.js';

/** The customer's wallet: its balance and movements, top-ups with any provider, and plans renewed from it. */
export const walletModule = defineModule({
  name: 'wallet',
  build(deps: WithBilling) {
    const { db, clock, log, settings, payments, usersRepo: users, billingRepo: billing, accountsRepo: accounts } = deps;
    return {
      wallet: createWalletService({ db, repo: deps.walletLedgerRepo, ledger: deps.walletLedger, settings, payments, users, clock, topUps: deps.topUps }),
      walletRenewals: createWalletRenewals({
        accounts,
        accountsService: deps.accounts,
        users,
        billing,
        checkout: deps.checkout,
        credit: deps.creditSpending,
        settings,
        notices: deps.notices,
        clock,
        log,
      }),
    };
  },
  routes: ({ wallet, walletRenewals, limits }) => [
    route(walletRoutes, { wallet, renewals: walletRenewals, checkoutLimit: limits.checkoutPerUser }),
    route(adminWalletRoutes, { wallet }),
  ],
  jobs: ({ walletRenewals }) => walletRenewals.handlers,
  periodicJobs: [SCAN_WALLET_RENEWALS],
});
