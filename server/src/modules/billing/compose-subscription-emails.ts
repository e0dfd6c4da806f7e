import type { Locale } from '../../../../shared/locales.js';
import {
  renderAccountPausedEmail,
  renderRenewalReminderEmail,
  renderSubscriptionCanceledEmail,
  renderSubscriptionResumedEmail,
} from '../../mail/billing-emails.js';
import type { SubscriptionRecord } from './billing.repo.js';
import { named, type BillingEmailDeps, type ComposedEmail, type EmailFrame, type NoticeOf } from './billing-email-deps.js';
import { boughtPlanName } from './bought-plan-name.js';
import { nextChargeAmount } from './promo-terms.js';
import { chargeDateOf } from './recurring/store-renewal-schedule.js';
import { subscriptionCurrency } from './subscription-currency.js';

/** The e-mails about an order as a whole: paused for non-payment, cancelled, resumed, or about to be charged again. */

/** The order a notice names, with what its e-mails say of it. */
interface Order {
  subscription: SubscriptionRecord;
  price: number;
  planNameIn: (locale: Locale) => string;
  currency: string;
}

export async function composeSubscriptionEmail(
  deps: BillingEmailDeps,
  notice: NoticeOf<'account_paused' | 'subscription_canceled' | 'subscription_resumed' | 'renewal_reminder'>,
  frame: EmailFrame,
): Promise<ComposedEmail> {
  const subscription = await named(deps, await deps.billing.findSubscription(notice.subscriptionId));
  if (!subscription) return null;
  const { price } = subscription.metadata;
  const planNameIn = (locale: Locale) => boughtPlanName(subscription.metadata, locale);
  const currency = subscriptionCurrency(subscription.metadata);
  const order: Order = { subscription, price, planNameIn, currency };
  if (notice.kind === 'account_paused') {
    return {
      userId: subscription.userId,
      render: (to, locale) => renderAccountPausedEmail({ to, locale, ...frame, planName: planNameIn(locale), amount: price, currency }),
    };
  }
  if (notice.kind === 'renewal_reminder') return renewalReminderEmail(notice, order, frame);
  if (notice.kind === 'subscription_resumed') return resumedEmail(order, frame);
  return {
    userId: subscription.userId,
    render: (to, locale) =>
      renderSubscriptionCanceledEmail({
        to,
        locale,
        ...frame,
        planName: planNameIn(locale),
        endsAt: subscription.currentPeriodEnd,
        byAdmin: notice.byAdmin,
        now: deps.clock(),
      }),
  };
}

function renewalReminderEmail(notice: NoticeOf<'renewal_reminder'>, { subscription, planNameIn, currency }: Order, frame: EmailFrame): ComposedEmail {
  // Cancelled, or already renewed, since the reminder was queued: nothing will be charged on that date.
  const end = subscription.currentPeriodEnd;
  if (subscription.cancelAtPeriodEnd || subscription.status !== 'active' || !end || chargeDateOf(subscription, end).toISOString() !== notice.chargeAt)
    return null;
  return {
    userId: subscription.userId,
    render: (to, locale) =>
      renderRenewalReminderEmail({
        to,
        locale,
        ...frame,
        planName: planNameIn(locale),
        amount: nextChargeAmount(subscription, end),
        currency,
        chargeAt: new Date(notice.chargeAt),
        renewedHere: subscription.metadata.renewed_by === 'store',
      }),
  };
}

function resumedEmail({ subscription, price, planNameIn, currency }: Order, frame: EmailFrame): ComposedEmail {
  // Cancelled again (or ended) before the e-mail went: the cancellation e-mail says what holds.
  if (subscription.cancelAtPeriodEnd || subscription.status === 'canceled') return null;
  return {
    userId: subscription.userId,
    render: (to, locale) =>
      renderSubscriptionResumedEmail({
        to,
        locale,
        ...frame,
        planName: planNameIn(locale),
        amount: subscription.currentPeriodEnd ? nextChargeAmount(subscription, subscription.currentPeriodEnd) : price,
        currency,
        renewsAt: subscription.currentPeriodEnd && chargeDateOf(subscription, subscription.currentPeriodEnd),
      }),
  };
}
