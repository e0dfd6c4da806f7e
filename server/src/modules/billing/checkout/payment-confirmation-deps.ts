import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import type { Clock } from '../../../lib/clock.js';
import type { AccountsRepo } from '../../accounts/index.js';
import type { WalletLedger } from '../../credit/index.js';
import type { BillingNotices } from '../billing-notices.js';
import type { AddOnsRepo } from '../add-ons/add-ons.repo.js';
import type { BillingRepo } from '../billing.repo.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import type { TrialsRepo } from '../trials/trials.repo.js';
import type { RecurringPayments } from '../recurring/recurring-payments.js';
import type { SavedMethodsRepo } from '../recurring/saved-methods.repo.js';
import type { StoreRenewalOutcomes } from '../recurring/store-renewal-outcomes.js';
import type { PaymentReversals } from '../refunds/payment-reversals.js';

/** What applying a checkout's state (confirm-paid.ts, close-unpaid.ts, apply-checkout.ts) works with. */
export interface PaymentConfirmationDeps {
  db: Db;
  billing: BillingRepo;
  periods: PaidPeriodsRepo;
  accounts: AccountsRepo;
  jobs: JobsRepo;
  recurring: RecurringPayments;
  reversals: PaymentReversals;
  notices: BillingNotices;
  /** Where a paid top-up goes, and a downgrade's credit beyond its new plan's price. */
  wallet: Pick<WalletLedger, 'creditTopUp' | 'creditPlanChange'>;
  /** The add-on ledger: what a paid add-on gives its account. */
  addOns: AddOnsRepo;
  /** Whose trial is taken, and which account holds it (a paid trial, a plan bought within the trial). */
  trials: TrialsRepo;
  /** Plans this server renews: the method their first payment saved, and what each renewal try came to. */
  savedMethods: SavedMethodsRepo;
  storeOutcomes: StoreRenewalOutcomes;
  clock: Clock;
  log: FastifyBaseLogger;
}
