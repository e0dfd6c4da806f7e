import type { FastifyBaseLogger } from 'fastify';
import { InlineKeyboard, type Bot } from 'grammy';
import { planText } from '../../../../shared/plan-translations.js';
import { AppError } from '../../errors.js';
import type { StarsCheckout } from '../billing/index.js';
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
    confirmStarsPayment(payment: { orderId: string; stars: number; chargeId: string }): Promise<'paid' | 'closed'>;
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
};

/**
 * Paying in Telegram Stars (Bot API "Payments in Telegram Stars"): a ⭐ button on a plan (and on an account, to renew
 * it) makes the order and answers with its invoice link; Telegram asks before it takes the Stars (pre_checkout_query,
 * answered at once after checking the order is still open and for this amount) and tells us when it has
 * (successful_payment), which delivers the order like any other payment. Stars that arrive for an order that closed
 * are sent back. `/paysupport` answers as Telegram requires of bots that sell.
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
    const text = plan ? planText(plan, ctx.locale) : null;
    await ctx.reply(
      t(ctx, 'pay.invoice', { plan: `<b>${escapeHtml(text?.name ?? '')}</b>`, duration: duration(ctx.locale, plan?.days ?? 0), stars: started.stars }),
      {
        parse_mode: 'HTML',
        reply_markup: new InlineKeyboard()
          .url(t(ctx, 'pay.button', { stars: started.stars }), started.url)
          .row()
          .text(t(ctx, 'plan.back'), 'plans'),
      },
    );
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
    const outcome = await deps.stars.confirmStarsPayment({ orderId: payment.invoice_payload, stars, chargeId });
    if (outcome === 'paid')
      return void (await ctx.reply(t(ctx, 'pay.thanks', { stars }), { reply_markup: new InlineKeyboard().text(t(ctx, 'menu.my'), 'my') }));
    // Paid for an order that had closed (or is not ours): nothing was delivered, so the Stars go back at once.
    deps.log.warn({ orderId: payment.invoice_payload, chargeId, stars }, 'telegram: Stars paid for an order that is not open; refunding them');
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
