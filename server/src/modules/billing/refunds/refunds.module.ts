import { defineModule, route, type Provided } from '../../module.js';
import type { WithRecurringPayments } from '../recurring/recurring-payments.module.js';
import { createRefundSender } from './refund-sender.js';
import { refundJobHandlers } from './refund-jobs.js';
import { adminTransactionsRoutes } from './refunds.routes.js';
import { createRefundsService } from './refunds.service.js';
import { createRevenueReport } from './revenue-report.js';

/** Refunds (to the card, the wallet, or by hand), the admin's payments list and the revenue report. */
export const refundsModule = defineModule({
  name: 'billing-refunds',
  build(deps: WithRecurringPayments) {
    const { db, clock, log, jobs, audit, billingRepo: billing, refundsRepo: refunds, payments, reversals } = deps;
    const refundSender = createRefundSender({ db, billing, refunds, payments, reversals, jobs, audit, clock, log });
    return {
      refundSender,
      refunds: createRefundsService({ db, billing, refunds, sender: refundSender, payments, reversals, wallet: deps.walletLedger, audit, clock }),
      revenue: createRevenueReport({ db, clock }),
    };
  },
  routes: ({ refunds, revenue }) => [route(adminTransactionsRoutes, { refunds, revenue })],
  jobs: ({ db, config, mailer, billingRepo: billing, payments, recurring, refundSender, plansRepo: plans, usersRepo: users, settings }) =>
    refundJobHandlers({ db, billing, payments, recurring, sender: refundSender, plans, users, settings, mailer, publicUrl: config.publicUrl }),
});

export type WithRefunds = WithRecurringPayments & Provided<typeof refundsModule>;
