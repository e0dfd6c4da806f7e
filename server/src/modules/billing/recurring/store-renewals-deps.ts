import type { Db } from '../../../db/knex.js';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import type { Clock } from '../../../lib/clock.js';
import type { CheckoutState } from '../../../payments/payment-driver.js';
import type { UsersRepo } from '../../users/index.js';
import type { BillingRepo } from '../billing.repo.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import type { SavedMethodsRepo } from './saved-methods.repo.js';

/** What the renewals this server charges itself (store-renewal-tries.ts, charge-store-renewal.ts, store-renewals.ts) work with. */
export interface StoreRenewalsDeps {
  db: Db;
  billing: BillingRepo;
  savedMethods: SavedMethodsRepo;
  payments: Pick<PaymentDrivers, 'forSubscription'>;
  users: Pick<UsersRepo, 'findById'>;
  periods: Pick<PaidPeriodsRepo, 'latestEnd'>;
  jobs: JobsRepo;
  /** Applies a payment's state to our records in `trx` (payment-confirmation.ts applyCheckout). */
  apply: (state: CheckoutState, trx: Db) => Promise<unknown>;
  clock: Clock;
}
