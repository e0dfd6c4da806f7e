import { InlineKeyboard, type Bot } from 'grammy';
import { EmailSchema } from '../../../../shared/auth.js';
import { AppError } from '../../errors.js';
import type { RequestMeta } from '../auth/index.js';
import type { UserProfile } from '../users/index.js';
import { askToLink, SIGN_UP_WITHOUT_EMAIL, type BotAccountDeps } from './bot-account.js';
import type { BotContext } from './bot-commands.js';
import { stopSpinner, t } from './bot-replies.js';
import { createStartPayloads, pendingReferral } from './bot-start.js';
import { LINK_PAYLOAD_PREFIX } from './telegram-links.service.js';

/** Where a sign-in code asked for from the bot says it came from. */
const FROM_BOT: RequestMeta = { ip: null, userAgent: 'Telegram bot' };

/**
 * One customer in both places: the Telegram user is linked by the dashboard's one-time link (`/start link_<token>`),
 * or by an e-mail code asked for here (their address, the code sent to it, as the website's sign-in: same cooldown,
 * same tries). What they type while linking is read as the address, then the code; a command leaves it as it is.
 */
export function installLinking(bot: Bot<BotContext>, deps: BotAccountDeps, showMenu: (ctx: BotContext) => Promise<void>): void {
  const starts = createStartPayloads(deps, askToLink);
  const cancelKeyboard = (ctx: BotContext) => new InlineKeyboard().text(t(ctx, 'link.cancel'), 'link:cancel');

  const startLinking = async (ctx: BotContext) => {
    if (!ctx.from) return;
    const { brandName } = await deps.settings.getAppSettings();
    await deps.chats.setAwaiting(ctx.from.id, { step: 'email' }, deps.clock());
    await ctx.reply(t(ctx, 'link.askEmail', { brand: brandName }), { reply_markup: cancelKeyboard(ctx) });
  };

  const takeEmail = async (ctx: BotContext, text: string) => {
    const email = EmailSchema.safeParse(text);
    if (!email.success) return void (await ctx.reply(t(ctx, 'link.badEmail'), { reply_markup: cancelKeyboard(ctx) }));
    try {
      await deps.auth.requestCode(email.data, FROM_BOT, ctx.locale);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const seconds = err.details.retryAfterSeconds;
      if (seconds !== undefined) return void (await ctx.reply(t(ctx, 'link.wait', { seconds }), { reply_markup: cancelKeyboard(ctx) }));
      return void (await ctx.reply(t(ctx, 'link.mailFailed'), { reply_markup: cancelKeyboard(ctx) }));
    }
    await deps.chats.setAwaiting(ctx.from!.id, { step: 'code', email: email.data }, deps.clock());
    await ctx.reply(t(ctx, 'link.codeSent', { email: email.data }), { reply_markup: cancelKeyboard(ctx) });
  };

  const takeCode = async (ctx: BotContext, email: string, text: string) => {
    const code = text.replace(/\s/g, '');
    if (!/^\d{6}$/.test(code)) return void (await ctx.reply(t(ctx, 'link.codeFormat'), { reply_markup: cancelKeyboard(ctx) }));
    let confirmed: { user: UserProfile; signedUp: boolean };
    try {
      // A friend's invitation the bot was opened with goes with a sign-up made here.
      confirmed = await deps.auth.confirmCode({ email, code, referralCode: pendingReferral(ctx.chat_row?.startPayload) });
    } catch (err) {
      const status = err instanceof AppError ? err.details.codeStatus : undefined;
      if (!status) throw err;
      if (status.reason === 'wrong')
        return void (await ctx.reply(t(ctx, 'link.wrongCode', { left: status.attemptsLeft }), { reply_markup: cancelKeyboard(ctx) }));
      // Expired, or locked by wrong tries: a new code is needed, so the address is asked for again.
      await deps.chats.setAwaiting(ctx.from!.id, { step: 'email' }, deps.clock());
      return void (await ctx.reply(t(ctx, 'link.codeGone'), { reply_markup: cancelKeyboard(ctx) }));
    }
    const { user, signedUp } = confirmed;
    if (!(await deps.links.linkByCode(user, ctx.from!.id))) return void (await ctx.reply(t(ctx, 'link.holdsCustomer')));
    ctx.chat_row = { ...ctx.chat_row!, userId: user.id, awaiting: null };
    await ctx.reply(t(ctx, 'link.done', { email }));
    await starts.resume(ctx, user, signedUp);
    await showMenu(ctx);
  };

  // `/start link_<token>`: the dashboard's one-time link. Any other payload goes on to the menu.
  bot.command('start', async (ctx, next) => {
    if (!ctx.match.startsWith(LINK_PAYLOAD_PREFIX) || !ctx.from) return next();
    const userId = await deps.links.redeem(ctx.match.slice(LINK_PAYLOAD_PREFIX.length), ctx.from.id);
    if (userId === 'holds_customer') return void (await ctx.reply(t(ctx, 'link.holdsCustomer')));
    if (!userId) return void (await ctx.reply(t(ctx, 'link.invalid')));
    ctx.chat_row = { ...ctx.chat_row!, userId, awaiting: null };
    const { brandName } = await deps.settings.getAppSettings();
    await ctx.reply(t(ctx, 'link.viaLinkDone', { brand: brandName }));
    const user = await deps.users.findById(userId);
    if (user) await starts.resume(ctx, user, false);
    await showMenu(ctx);
  });
  // `/start ref_…`, `gift_…`, `promo_…` (bot-start.ts); the menu follows.
  bot.command('start', async (ctx, next) => ((await starts.handle(ctx, ctx.match)) ? showMenu(ctx) : next()));
  // A customer without an e-mail: this Telegram is their account (an address can be added on the dashboard later).
  bot.callbackQuery(SIGN_UP_WITHOUT_EMAIL, async (ctx) => {
    await stopSpinner(ctx);
    const chat = ctx.chat_row;
    if (chat?.userId) return showMenu(ctx);
    if (!chat || chat.everLinked)
      return void (await ctx.reply(t(ctx, 'link.everLinked'), { reply_markup: new InlineKeyboard().text(t(ctx, 'menu.link'), 'link') }));
    const user = await deps.auth.signUpWithoutEmail({
      locale: ctx.locale,
      referralCode: pendingReferral(chat.startPayload),
      via: 'telegram_bot',
      telegramId: ctx.from.id,
    });
    if ((await deps.chats.link(ctx.from.id, user.id, deps.clock())) !== 'linked') return void (await ctx.reply(t(ctx, 'link.holdsCustomer')));
    ctx.chat_row = { ...chat, userId: user.id, everLinked: true, awaiting: null };
    const { brandName } = await deps.settings.getAppSettings();
    await ctx.reply(t(ctx, 'link.noEmailDone', { brand: brandName }));
    await starts.resume(ctx, user, true);
    await showMenu(ctx);
  });
  bot.command('link', startLinking);
  bot.callbackQuery('link', async (ctx) => (await stopSpinner(ctx), startLinking(ctx)));
  bot.callbackQuery('link:cancel', async (ctx) => {
    await stopSpinner(ctx);
    await deps.chats.setAwaiting(ctx.from.id, null, deps.clock());
    await ctx.reply(t(ctx, 'link.cancelled'));
    await showMenu(ctx);
  });
  bot.on('message:text', async (ctx, next) => {
    const awaiting = ctx.chat_row?.awaiting;
    if (ctx.chat.type !== 'private' || !awaiting || ctx.message.text.startsWith('/')) return next();
    if (awaiting.step === 'email') return takeEmail(ctx, ctx.message.text);
    return takeCode(ctx, awaiting.email, ctx.message.text);
  });
}
