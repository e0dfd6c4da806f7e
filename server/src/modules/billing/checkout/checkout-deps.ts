import type { FastifyBaseLogger } from 'fastify';
import { DEFAULT_LOCALE, localizedPath } from '../../../../../shared/locales.js';
import type { Db } from '../../../db/knex.js';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import type { Clock } from '../../../lib/clock.js';
import type { AccountsRepo, AccountsService, Provisioner } from '../../accounts/index.js';
import type { PlansRepo } from '../../plans/index.js';
import type { PromoCodesService } from '../../promo-codes/index.js';
import type { CreditSpending } from '../../credit/index.js';
import type { ServersService } from '../../servers/index.js';
import type { SettingsService } from '../../settings/index.js';
import type { UserProfile } from '../../users/index.js';
import type { AddOnsRepo } from '../add-ons/add-ons.repo.js';
import type { BillingRepo } from '../billing.repo.js';
import type { PaidPeriodsRepo } from '../ledger/paid-periods.repo.js';
import type { TrialsRepo } from '../trials/trials.repo.js';
import type { PaymentCustomers } from '../provider-accounts/payment-customers.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import type { OrderRows } from './order-rows.js';
import type { PaymentConfirmation } from './payment-confirmation.js';

/** What the checkout use cases (start-checkout.ts, free-orders.ts, checkout-returns.ts) work with. */
export interface CheckoutDeps {
  db: Db;
  billing: BillingRepo;
  /** The paid-period ledger: what a plan change credits. */
  periods: PaidPeriodsRepo;
  /** The add-ons on sale (start-add-on.ts). */
  addOns: AddOnsRepo;
  accounts: AccountsRepo;
  accountsService: AccountsService;
  plans: PlansRepo;
  settings: SettingsService;
  payments: PaymentDrivers;
  provisioner: Provisioner;
  servers: ServersService;
  confirmation: PaymentConfirmation;
  customers: PaymentCustomers;
  promos: PromoCodesService;
  /** The referral discount code of a customer who was referred with one and has not paid yet (null otherwise). */
  referralDiscount?: (userId: string) => Promise<string | null>;
  /** The customer's referral credit, spent on their one-off orders. */
  credit?: CreditSpending;
  /** The extra days a customer referred with them gets on their first order paid once (0 for anyone else). */
  referralBonusDays?: (userId: string) => Promise<number>;
  orders: OrderRows;
  /** Whose trial is taken, and which account holds it (billing/trials). */
  trials: TrialsRepo;
  jobs: JobsRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: URL;
}

/** A page of the site in the user's language: `/thank-you`, `/ru/thank-you`, … */
export const sitePage = (deps: Pick<CheckoutDeps, 'publicUrl'>, user: UserProfile, path: string) =>
  new URL(localizedPath(user.locale ?? DEFAULT_LOCALE, path), deps.publicUrl).href;
