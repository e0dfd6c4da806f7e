import { defineModule, type Provided } from '../../module.js';
import type { BillingBase, ledgerModule } from '../ledger/ledger.module.js';
import { createRecurringPayments } from './recurring-payments.js';
import { createTrialsRepo } from '../trials/trials.repo.js';

/** Recurring payments as they arrive: each paid invoice a paid period, each failed one a past-due account. */
export const recurringPaymentsModule = defineModule({
  name: 'billing-recurring-payments',
  build({ db, clock, log, jobs, notices, billingRepo: billing, periods, accountsRepo: accounts, reversals }: BillingBase & Provided<typeof ledgerModule>) {
    return { recurring: createRecurringPayments({ billing, periods, accounts, jobs, reversals, notices, trials: createTrialsRepo(db), clock, log }) };
  },
});

export type WithRecurringPayments = BillingBase & Provided<typeof ledgerModule> & Provided<typeof recurringPaymentsModule>;
