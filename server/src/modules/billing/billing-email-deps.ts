import { z } from 'zod';
import type { Clock } from '../../lib/clock.js';
import type { Mailer, MailMessage } from '../../mail/mailer.js';
import type { Locale } from '../../../../shared/locales.js';
import type { AccountsRepo } from '../accounts/index.js';
import type { PlansRepo } from '../plans/index.js';
import type { SettingsService } from '../settings/index.js';
import type { UsersRepo } from '../users/index.js';
import type { BillingRepo, SubscriptionRecord } from './billing.repo.js';
import { withPlanNames } from './bought-plan-name.js';
import type { PaidPeriods } from './ledger/paid-period.js';
import type { PaidPeriodsRepo } from './ledger/paid-periods.repo.js';

/**
 * What the billing e-mail job (send-billing-email.ts) and its composers work with: the notice a job carries,
 * the records and services it reads, and the e-mail a composer gives back to be rendered in the reader's language.
 */

const Id = z.string().min(1);
export const Notice = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('receipt'), transactionId: Id }),
  z.object({ kind: z.literal('payment_failed'), transactionId: Id, nextAttemptAt: z.iso.datetime().nullable() }),
  z.object({ kind: z.literal('partial_payment'), transactionId: Id }),
  z.object({ kind: z.literal('account_paused'), subscriptionId: Id }),
  z.object({ kind: z.literal('subscription_canceled'), subscriptionId: Id, byAdmin: z.boolean() }),
  z.object({ kind: z.literal('subscription_resumed'), subscriptionId: Id }),
  z.object({ kind: z.literal('renewal_reminder'), subscriptionId: Id, chargeAt: z.iso.datetime() }),
  z.object({ kind: z.literal('plan_ending'), accountId: Id, endsAt: z.iso.datetime() }),
  z.object({ kind: z.literal('data_usage'), accountId: Id, percent: z.union([z.literal(80), z.literal(100)]) }),
  z.object({ kind: z.literal('device_limit'), accountId: Id, limit: z.number().int().positive() }),
  z.object({ kind: z.literal('subscription_link_moved'), accountId: Id, host: z.string().min(1).max(260) }),
  z.object({ kind: z.literal('refund'), transactionId: Id, amountRefunded: z.number().int().positive() }),
  z.object({
    kind: z.literal('wallet_renewal_short'),
    accountId: Id,
    endsAt: z.iso.datetime(),
    price: z.number().int(),
    needed: z.number().int(),
    currency: z.string(),
    final: z.boolean(),
  }),
]);
export type Notice = z.infer<typeof Notice>;

/** The notices of the given kinds. */
export type NoticeOf<K extends Notice['kind']> = Extract<Notice, { kind: K }>;

/** The records the job reads when it runs, the settings and clock it frames e-mails with, and the mailer it sends them by. */
export interface BillingEmailDeps {
  billing: BillingRepo;
  periods: PaidPeriodsRepo;
  accounts: AccountsRepo;
  plans: PlansRepo;
  users: UsersRepo;
  settings: SettingsService;
  paidPeriods: PaidPeriods;
  mailer: Mailer;
  publicUrl: URL;
  clock: Clock;
}

/** What every billing e-mail is framed with: the store's name and address. */
export interface EmailFrame {
  brandName: string;
  publicUrl: URL;
}

/** The e-mail a notice gives: whom it goes to and how it reads in their language; null when there is nothing to tell. */
export type ComposedEmail = { userId: string; render: (to: string, locale: Locale) => MailMessage } | null;

/** The order with its plan's names in the other languages (an order from before they were kept: its plan's now). */
export const named = async <S extends SubscriptionRecord>(deps: BillingEmailDeps, subscription: S | undefined): Promise<S | undefined> =>
  subscription && { ...subscription, metadata: await withPlanNames(subscription.metadata, deps.plans) };
