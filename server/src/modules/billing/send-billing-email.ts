import { z } from 'zod';
import type { Clock } from '../../lib/clock.js';
import {
  renderAccountPausedEmail,
  renderDataUsageEmail,
  renderPartialPaymentEmail,
  renderPaymentFailedEmail,
  renderPlanEndingEmail,
  renderReceiptEmail,
  renderRenewalReminderEmail,
  renderSubscriptionCanceledEmail,
  renderSubscriptionResumedEmail,
} from '../../mail/billing-emails.js';
import type { Mailer, MailMessage } from '../../mail/mailer.js';
import { emailText } from '../../mail/messages/index.js';
import { DEFAULT_LOCALE, type Locale } from '../../../../shared/locales.js';
import { planText } from '../../../../shared/plan-translations.js';
import type { AccountsRepo } from '../accounts/accounts.repo.js';
import type { BillingRepo, SubscriptionRecord } from './billing.repo.js';
import { graceEndOf, type PaidPeriods } from './ledger/paid-period.js';
import { chargeDateOf } from './recurring/store-renewal-schedule.js';
import { renderWalletRenewalShortEmail } from '../../mail/wallet-emails.js';
import { renderSubscriptionLinkMovedEmail } from '../../mail/subscription-link-emails.js';
import { activeSubscriptionHost, originOf } from '../../../../shared/subscription-domains.js';
import type { PaidPeriodsRepo } from './ledger/paid-periods.repo.js';
import { subscriptionCurrency } from './subscription-currency.js';
import { boughtPlanName, withPlanNames } from './bought-plan-name.js';
import type { PlansRepo } from '../plans/plans.repo.js';
import { nextChargeAmount } from './promo-terms.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import { PermanentJobError, type JobHandler } from '../../jobs/worker.js';

const Id = z.string().min(1);
const Notice = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('receipt'), transactionId: Id }),
  z.object({ kind: z.literal('payment_failed'), transactionId: Id, nextAttemptAt: z.iso.datetime().nullable() }),
  z.object({ kind: z.literal('partial_payment'), transactionId: Id }),
  z.object({ kind: z.literal('account_paused'), subscriptionId: Id }),
  z.object({ kind: z.literal('subscription_canceled'), subscriptionId: Id, byAdmin: z.boolean() }),
  z.object({ kind: z.literal('subscription_resumed'), subscriptionId: Id }),
  z.object({ kind: z.literal('renewal_reminder'), subscriptionId: Id, chargeAt: z.iso.datetime() }),
  z.object({ kind: z.literal('plan_ending'), accountId: Id, endsAt: z.iso.datetime() }),
  z.object({ kind: z.literal('data_usage'), accountId: Id, percent: z.union([z.literal(80), z.literal(100)]) }),
  z.object({ kind: z.literal('subscription_link_moved'), accountId: Id, host: z.string().min(1).max(260) }),
  z.object({
    kind: z.literal('wallet_renewal_short'), accountId: Id, endsAt: z.iso.datetime(), price: z.number().int(), needed: z.number().int(), currency: z.string(), final: z.boolean(),
  }),
]);
type Notice = z.infer<typeof Notice>;

/**
 * Sends one billing e-mail (billing-notices.ts queues them, once per event). It reads the records when
 * it runs; a record gone meanwhile (a deleted user) sends nothing. Retried while the mail server does not answer.
 */
export function createSendBillingEmailHandler(deps: {
  billing: BillingRepo; periods: PaidPeriodsRepo; accounts: AccountsRepo; plans: PlansRepo; users: UsersRepo; settings: SettingsService; paidPeriods: PaidPeriods; mailer: Mailer; publicUrl: URL; clock: Clock;
}): JobHandler {
  const { billing } = deps;
  /** The order with its plan's names in the other languages (an order from before they were kept: its plan's now). */
  const named = async <S extends SubscriptionRecord>(subscription: S | undefined): Promise<S | undefined> =>
    subscription && { ...subscription, metadata: await withPlanNames(subscription.metadata, deps.plans) };

  async function compose(notice: Notice, frame: { brandName: string; publicUrl: URL }): Promise<{ userId: string; render: (to: string, locale: Locale) => MailMessage } | null> {
    switch (notice.kind) {
      case 'receipt':
      case 'payment_failed':
      case 'partial_payment': {
        const transaction = await billing.findTransaction(notice.transactionId);
        const subscription = transaction && (await named(await billing.findSubscription(transaction.subscriptionId)));
        if (!transaction || !subscription) return null;
        const planName = transaction.metadata.plan_name ?? subscription.metadata.plan_name;
        if (notice.kind === 'partial_payment') {
          const review = transaction.metadata.review;
          // Paid in full after all (or already refunded) before the e-mail went: there is nothing to tell.
          if (transaction.status !== 'needs_review' || review?.reason !== 'partial_payment' || review.amount_paid === null) return null;
          const amountPaid = review.amount_paid;
          return {
            userId: transaction.userId,
            render: (to, locale) => renderPartialPaymentEmail({ to, locale, ...frame, planName: boughtPlanName(subscription.metadata, locale, planName), amount: transaction.amount, currency: transaction.currency, amountPaid }),
          };
        }
        const recurring = subscription.billing === 'recurring';
        if (notice.kind === 'payment_failed') {
          // A plan renewed here is charged before its period ends, and runs until then whatever happens.
          const renewedHere = subscription.metadata.renewed_by === 'store';
          const graceEndsAt = (renewedHere ? subscription.currentPeriodEnd : graceEndOf(subscription, await deps.paidPeriods.graceMs())) ?? deps.clock();
          return {
            userId: transaction.userId,
            render: (to, locale) => renderPaymentFailedEmail({
              to, locale, ...frame, planName: boughtPlanName(subscription.metadata, locale, planName), amount: transaction.amount, currency: transaction.currency, graceEndsAt,
              nextAttemptAt: notice.nextAttemptAt ? new Date(notice.nextAttemptAt) : null, renewedHere,
            }),
          };
        }
        // The period this payment bought, as the ledger has it.
        const periodEnd = (await deps.periods.forTransaction(transaction.id))?.endsAt ?? subscription.currentPeriodEnd;
        const renews = recurring && !subscription.cancelAtPeriodEnd && subscription.status !== 'canceled';
        return {
          userId: transaction.userId,
          render: (to, locale) => renderReceiptEmail({
            to, locale, ...frame, planName: boughtPlanName(subscription.metadata, locale, planName), amount: transaction.amount, currency: transaction.currency, paidAt: transaction.createdAt,
            periodEnd, renewal: (transaction.metadata.kind ?? subscription.metadata.kind) === 'renewal', recurring,
            nextChargeAt: renews ? periodEnd : null, receiptNumber: transaction.id.slice(0, 8).toUpperCase(),
            ...(renews && periodEnd ? { nextChargeAmount: nextChargeAmount(subscription, periodEnd) } : {}),
            promo: transaction.metadata.promo ? { code: transaction.metadata.promo.code, amountBefore: transaction.metadata.promo.amount_before, discount: transaction.metadata.promo.discount } : null,
            // Our credit spent on a one-off order, or the provider's balance taken off a renewal.
            credit: transaction.metadata.credit_spent ?? transaction.metadata.credit_applied ?? null,
            // A referral's extra days came with the order's first payment, not its renewals.
            bonusDays: transaction.metadata.kind === 'renewal' ? undefined : subscription.metadata.bonus_days,
          }),
        };
      }
      case 'account_paused':
      case 'subscription_canceled':
      case 'subscription_resumed':
      case 'renewal_reminder': {
        const subscription = await named(await billing.findSubscription(notice.subscriptionId));
        if (!subscription) return null;
        const { price } = subscription.metadata;
        const planNameIn = (locale: Locale) => boughtPlanName(subscription.metadata, locale);
        const currency = subscriptionCurrency(subscription.metadata);
        if (notice.kind === 'account_paused') {
          return { userId: subscription.userId, render: (to, locale) => renderAccountPausedEmail({ to, locale, ...frame, planName: planNameIn(locale), amount: price, currency }) };
        }
        if (notice.kind === 'renewal_reminder') {
          // Cancelled, or already renewed, since the reminder was queued: nothing will be charged on that date.
          const end = subscription.currentPeriodEnd;
          if (subscription.cancelAtPeriodEnd || subscription.status !== 'active' || !end || chargeDateOf(subscription, end).toISOString() !== notice.chargeAt) return null;
          return { userId: subscription.userId, render: (to, locale) => renderRenewalReminderEmail({ to, locale, ...frame, planName: planNameIn(locale), amount: nextChargeAmount(subscription, end), currency, chargeAt: new Date(notice.chargeAt), renewedHere: subscription.metadata.renewed_by === 'store' }) };
        }
        if (notice.kind === 'subscription_resumed') {
          // Cancelled again (or ended) before the e-mail went: the cancellation e-mail says what holds.
          if (subscription.cancelAtPeriodEnd || subscription.status === 'canceled') return null;
          return {
            userId: subscription.userId,
            render: (to, locale) => renderSubscriptionResumedEmail({
              to, locale, ...frame, planName: planNameIn(locale), amount: subscription.currentPeriodEnd ? nextChargeAmount(subscription, subscription.currentPeriodEnd) : price, currency, renewsAt: subscription.currentPeriodEnd && chargeDateOf(subscription, subscription.currentPeriodEnd),
            }),
          };
        }
        return {
          userId: subscription.userId,
          render: (to, locale) => renderSubscriptionCanceledEmail({ to, locale, ...frame, planName: planNameIn(locale), endsAt: subscription.currentPeriodEnd, byAdmin: notice.byAdmin, now: deps.clock() }),
        };
      }
      case 'plan_ending': {
        const account = await deps.accounts.findById(notice.accountId);
        if (!account) return null;
        const subscription = await named((await billing.listSubscriptionsForUser(account.userId)).find((s) => s.vpnAccountId === account.id && s.currentPeriodEnd?.toISOString() === notice.endsAt));
        // Without an order (a free or trial account): its plan's name in the reader's language, while the plan still has the account's name.
        const plan = !subscription && account.planId ? await deps.plans.findById(account.planId) : undefined;
        const accountPlanName = (locale: Locale) =>
          plan && plan.name === account.planName ? planText(plan, locale).name : account.planName;
        const planNameIn = (locale: Locale) => (subscription ? boughtPlanName(subscription.metadata, locale) : accountPlanName(locale)) ?? emailText(locale, 'billing.yourPlan');
        return { userId: account.userId, render: (to, locale) => renderPlanEndingEmail({ to, locale, ...frame, planName: planNameIn(locale), endsAt: new Date(notice.endsAt), accountName: account.username, now: deps.clock() }) };
      }
      case 'wallet_renewal_short': {
        const account = await deps.accounts.findById(notice.accountId);
        // Renewed meanwhile (topped up in time), or auto-renew turned off: there is nothing to tell.
        if (!account || !account.walletAutoRenew || (account.paidUntil ?? account.expireDate)?.toISOString() !== notice.endsAt) return null;
        return {
          userId: account.userId,
          render: (to, locale) => renderWalletRenewalShortEmail({
            to, locale, ...frame, accountName: account.username, planName: account.planName ?? emailText(locale, 'billing.yourPlan'), price: notice.price, needed: notice.needed,
            currency: notice.currency, endsAt: new Date(notice.endsAt), final: notice.final,
          }),
        };
      }
      case 'subscription_link_moved': {
        const account = await deps.accounts.findById(notice.accountId);
        const { subscriptionDomains } = await deps.settings.getAppSettings();
        // Moved again since (the newer move tells), or the account is gone: nothing to tell.
        if (!account || activeSubscriptionHost(subscriptionDomains, deps.publicUrl) !== notice.host) return null;
        const link = `${originOf(notice.host, deps.publicUrl)}/sub/${account.subToken}`;
        return { userId: account.userId, render: (to, locale) => renderSubscriptionLinkMovedEmail({ to, locale, ...frame, accountName: account.username, link }) };
      }
      case 'data_usage': {
        const account = await deps.accounts.findById(notice.accountId);
        if (!account || account.dataLimitBytes <= 0) return null;
        return {
          userId: account.userId,
          render: (to, locale) => renderDataUsageEmail({ to, locale, ...frame, accountName: account.username, percent: notice.percent, limitBytes: account.dataLimitBytes, expiresAt: account.expireDate }),
        };
      }
    }
  }

  return async (payload) => {
    const parsed = Notice.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad billing notice payload');
    const { brandName } = await deps.settings.getAppSettings();
    const mail = await compose(parsed.data, { brandName, publicUrl: deps.publicUrl });
    if (!mail) return;
    // One read gives the address and the language the customer reads (their e-mails follow it).
    const user = await deps.users.findById(mail.userId);
    if (!user) return;
    await deps.mailer.send(mail.render(user.email, user.locale ?? DEFAULT_LOCALE));
  };
}
