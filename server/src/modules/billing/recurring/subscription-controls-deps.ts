import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/knex.js';
import type { Clock } from '../../../lib/clock.js';
import type { AuditRepo } from '../../audit/index.js';
import type { BillingRepo } from '../billing.repo.js';
import type { PaidPeriods } from '../ledger/paid-period.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import type { PaymentCustomers } from '../provider-accounts/payment-customers.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import type { RecurringPayments } from './recurring-payments.js';
import type { SavedMethodsRepo } from './saved-methods.repo.js';
import type { SubscriptionsAdminRepo } from './subscriptions-admin.repo.js';

/** What the subscription controls (subscription-changes.ts, customer-subscription-controls.ts, admin-subscription-controls.ts) work with. */
export interface SubscriptionControlsDeps {
  db: Db;
  billing: BillingRepo;
  periods: PaidPeriodsRepo;
  admin: SubscriptionsAdminRepo;
  payments: Pick<PaymentDrivers, 'forSubscription' | 'accounts'>;
  billingAccountOfUser: (userId: string) => Promise<string | null>;
  customers: PaymentCustomers;
  recurring: RecurringPayments;
  /** The cards plans renewed here are charged with. */
  savedMethods: Pick<SavedMethodsRepo, 'findById'>;
  paidPeriods: PaidPeriods;
  audit: AuditRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: URL;
}
