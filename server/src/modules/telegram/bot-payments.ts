import type { FastifyBaseLogger } from 'fastify';
import { InlineKeyboard, type Bot } from 'grammy';
import type { SuccessfulPayment } from 'grammy/types';
import { planText } from '../../../../shared/plan-translations.js';
import { AppError } from '../../errors.js';
import { starsSubscriptionRef } from '../../payments/telegram-stars/stars-subscriptions.js';
import type { StarsCheckout, StarsPayment, StarsPaymentOutcome, StarsSubscriptionPayment } from '../billing/index.js';
import type { UserProfile } from '../users/index.js';
import type { BotMessageKey } from './bot-messages/index.js';
import type { BotAccountDeps } from './bot-account.js';
import type { BotContext } from './bot-commands.js';
import { duration, escapeHtml, stopSpinner, t } from './bot-replies.js';

/** What paying in Telegram Stars from the bot reads and does (the orders are billing's: stars-checkout.ts). */
export interface BotPaymentDeps extends Pick<BotAccountDeps, 'users' | 'settings' | 'planById'> {
  stars: {
    startStarsCheckout(user: UserProfile, body: { planId: string } | { accountId: string }): Promise<StarsCheckout>;
    starsOrderPayable(orderId: string, stars: number): Promise<boolean>;
    confirmStarsPayment(payment: StarsPayment): Promise<StarsPaymentOutcome>;
  };
  log: FastifyBaseLogger;
}

/** Why an order could not be made, in the customer's words (the server's own message is English). */
const REFUSALS: Record<string, BotMessageKey> = {
  not_purchasable: 'pay.notSold',
  not_found: 'plan.gone',
  payment_not_configured: 'pay.unavailable',
  already_renews: 'pay.alreadyRenews',
  not_renewable: 'pay.notRenewable',
  trial_used: 'trial.used',
  trial_in_progress: 'trial.inProgress',
};

/**
 * A subscription's payment (is_recurring, with the date its subscription now runs to): the first (is_first_recurring)
 * starts the subscription its payer and charge name; the others renew it.
 */
function subscriptionPaymentOf(payment: SuccessfulPayment, payerId: number, date: number): StarsSubscriptionPayment | undefined {
  if (!payment.is_recurring || payment.subscription_expiration_date === undefined) return undefined;
  const times = { paidAt: new Date(date * 1000), expiresAt: new Date(payment.subscription_expiration_date * 1000) };
  if (!payment.is_first_recurring) return { ...times, first: false };
  return { ...times, first: true, ref: starsSubscriptionRef(payerId, payment.telegram_payment_charge_id) };
}

/**
 * Paying in Telegram Stars (Bot API "Payments in Telegram Stars"): a ⭐ button on a plan (and on an account, to renew
 * it) makes the order and answers with its invoice link (a monthly recurring plan's is a Stars subscription, which
 * Telegram charges again every 30 days); Telegram asks before it takes the Stars (pre_checkout_query, answered at
 * once after checking the order is still open and for this amount) and tells us when it has (successful_payment),
 * which delivers the order like any other payment, or extends the account of the subscription it renews. Stars that
 * arrive for an order that closed are sent back (and a subscription they started stops renewing). `/paysupport`
 * answers as Telegram requires of bots that sell.
 */
export function installPayments(bot: Bot<BotContext>, deps: BotPaymentDeps, askToLink: (ctx: BotContext) => Promise<void>): void {
  const customerOf = async (ctx: BotContext) => (ctx.chat_row?.userId ? deps.users.findById(ctx.chat_row.userId) : undefined);

  const order = async (ctx: BotContext, body: { planId: string } | { accountId: string }) => {
    const user = await customerOf(ctx);
    if (!user) return askToLink(ctx);
    let started: StarsCheckout;
    try {
      started = await deps.stars.startStarsCheckout(user, body);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.statusCode >= 500 && err.code !== 'payment_not_configured') deps.log.warn({ err, userId: user.id }, 'telegram: a Stars order could not be made');
      return void (await ctx.reply(t(ctx, REFUSALS[err.code] ?? 'pay.failed'), { reply_markup: new InlineKeyboard().text(t(ctx, 'plan.back'), 'plans') }));
    }
    const plan = await deps.planById(started.planId);
    const name = `<b>${escapeHtml((plan ? planText(plan, ctx.locale) : null)?.name ?? '')}</b>`;
    const { stars } = started;
    const text = started.renews
      ? t(ctx, 'pay.subscription', { plan: name, stars })
      : t(ctx, 'pay.invoice', { plan: name, duration: duration(ctx.locale, plan?.days ?? 0), stars });
    await ctx.reply(text, {
      parse_mode: 'HTML',
      reply_markup: new InlineKeyboard()
        .url(t(ctx, started.renews ? 'pay.subscribeButton' : 'pay.button', { stars }), started.url)
        .row()
        .text(t(ctx, 'plan.back'), 'plans'),
    });
  };

  bot.callbackQuery(/^stars:plan:([\w-]{1,64})$/, async (ctx) => (await stopSpinner(ctx), order(ctx, { planId: ctx.match[1]! })));
  bot.callbackQuery(/^stars:account:([\w-]{1,64})$/, async (ctx) => (await stopSpinner(ctx), order(ctx, { accountId: ctx.match[1]! })));

  // Telegram waits 10 s for this answer, and takes nothing unless it is yes.
  bot.on('pre_checkout_query', async (ctx) => {
    const query = ctx.preCheckoutQuery;
    const payable = query.currency === 'XTR' && (await deps.stars.starsOrderPayable(query.invoice_payload, query.total_amount));
    if (payable) await ctx.answerPreCheckoutQuery(true);
    else await ctx.answerPreCheckoutQuery(false, { error_message: t(ctx, 'pay.orderClosed') });
  });

  bot.on('message:successful_payment', async (ctx) => {
    const payment = ctx.message.successful_payment;
    if (payment.currency !== 'XTR') return;
    const stars = payment.total_amount;
    const chargeId = payment.telegram_payment_charge_id;
    const subscription = subscriptionPaymentOf(payment, ctx.from.id, ctx.message.date);
    const outcome = await deps.stars.confirmStarsPayment({ orderId: payment.invoice_payload, stars, chargeId, ...(subscription ? { subscription } : {}) });
    const myVpn = { reply_markup: new InlineKeyboard().text(t(ctx, 'menu.my'), 'my') };
    if (outcome === 'paid') return void (await ctx.reply(t(ctx, 'pay.thanks', { stars }), myVpn));
    if (outcome === 'renewed') return void (await ctx.reply(t(ctx, 'pay.renewed', { stars }), myVpn));
    // A renewal applied already (this update again, or the reconcile was first), or left to the reconcile: nothing to say.
    if (outcome === 'known') return;
    // Paid for an order that had closed (or is not ours): nothing was delivered, so the Stars go back at once, and a
    // subscription the payment started is not charged again.
    deps.log.warn({ orderId: payment.invoice_payload, chargeId, stars }, 'telegram: Stars paid for an order that is not open; refunding them');
    if (subscription?.first)
      await ctx.api.editUserStarSubscription(ctx.from.id, chargeId, true).catch((err: unknown) => {
        deps.log.warn({ err, chargeId }, 'telegram: the subscription of a refunded Stars payment could not be stopped');
      });
    await ctx.api.refundStarPayment(ctx.from.id, chargeId).catch((err: unknown) => {
      if (!/CHARGE_ALREADY_REFUNDED/.test(String((err as Error).message))) throw err;
    });
    await ctx.reply(t(ctx, 'pay.refunded', { stars }));
  });

  bot.command('paysupport', async (ctx) => {
    const { supportEmail } = await deps.settings.getAppSettings();
    await ctx.reply(t(ctx, 'paysupport.text', { email: supportEmail }));
  });
}
