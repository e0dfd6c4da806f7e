import { InlineKeyboard, type Bot, type Context } from 'grammy';
import type { BotCommand } from 'grammy/types';
import { LOCALE_NAMES, LOCALE_PREFIX, LOCALES, isLocale, type Locale } from '../../../../shared/locales.js';
import { formatMoney } from '../../../../shared/money.js';
import { planText } from '../../../../shared/plan-translations.js';
import type { Plan } from '../../../../shared/plans.js';
import type { Clock } from '../../lib/clock.js';
import { accountMenuButtons, askToLink, installAccountCommands, type BotAccountDeps } from './bot-account.js';
import { botText } from './bot-messages/index.js';
import { installPayments, type BotPaymentDeps } from './bot-payments.js';
import { installSiteCheckout, paidOnSite, SITE_PAY_PLAN, type BotSiteCheckoutDeps } from './bot-site-checkout.js';
import { duration, escapeHtml, stopSpinner, t } from './bot-replies.js';
import type { TelegramChat } from './telegram-chats.repo.js';

/** An update's context with the person's chat row and the language the bot writes to them in. */
export interface BotContext extends Context {
  chat_row?: TelegramChat;
  locale: Locale;
}

/** What the bot's commands read. */
export interface BotCommandDeps extends BotAccountDeps, BotPaymentDeps, BotSiteCheckoutDeps {
  plans: { listPricingPlans(): Promise<Plan[]>; listPublicPlans(): Promise<Plan[]> };
  publicUrl: URL;
  clock: Clock;
  /** The best of our languages for a Telegram `language_code` (`ru`, `zh-hans`, `pt-br`…): English when none fits. */
  localeOf(languageCode: string | undefined): Locale;
}

const COMMANDS = ['start', 'my', 'trial', 'plans', 'language', 'support', 'paysupport'] as const;

/** The command menu Telegram shows, in each language (setMyCommands). */
export const BOT_COMMANDS: Readonly<Record<Locale, BotCommand[]>> = Object.fromEntries(
  LOCALES.map((locale) => [locale, COMMANDS.map((command) => ({ command, description: botText(locale, `command.${command}`) }))]),
) as Record<Locale, BotCommand[]>;

/**
 * The commands and buttons of the bot: the menu (`/start`), the plans and each plan's terms, the language, and
 * support. Every text is in the person's language: the one they chose here, else their Telegram app's.
 */
export function installCommands(bot: Bot<BotContext>, deps: BotCommandDeps): void {
  // Links only where Telegram takes them: it refuses a button to http://localhost.
  const siteLinks = deps.publicUrl.protocol === 'https:';
  const sitePage = (locale: Locale, path: string) => new URL(`${LOCALE_PREFIX[locale]}${path}`, deps.publicUrl).href;

  bot.use(async (ctx, next) => {
    ctx.locale = 'en';
    if (ctx.from && !ctx.from.is_bot) {
      ctx.chat_row = await deps.chats.seen(ctx.from, deps.clock());
      ctx.locale = ctx.chat_row.locale ?? deps.localeOf(ctx.from.language_code);
    }
    await next();
  });

  const menu = (ctx: BotContext) => {
    const keyboard = accountMenuButtons(ctx, new InlineKeyboard()).text(t(ctx, 'menu.plans'), 'plans').row();
    // On an https site the dashboard opens inside Telegram (the Mini App), else a link to the site where it can be one.
    if (siteLinks) keyboard.webApp(t(ctx, 'menu.app'), sitePage(ctx.locale, '/dashboard')).row().url(t(ctx, 'menu.site'), sitePage(ctx.locale, '/')).row();
    return keyboard.text(t(ctx, 'menu.language'), 'language').text(t(ctx, 'menu.support'), 'support');
  };
  const showMenu = async (ctx: BotContext) => {
    const { brandName } = await deps.settings.getAppSettings();
    await ctx.reply(t(ctx, 'start.welcome', { brand: brandName }), { reply_markup: menu(ctx) });
  };

  const showPlans = async (ctx: BotContext) => {
    const plans = await deps.plans.listPricingPlans();
    if (plans.length === 0) return void (await ctx.reply(t(ctx, 'plans.none'), { reply_markup: new InlineKeyboard().text(t(ctx, 'menu.back'), 'menu') }));
    const keyboard = new InlineKeyboard();
    for (const plan of plans) keyboard.text(planText(plan, ctx.locale).name, `plan:${plan.id}`).row();
    await ctx.reply(t(ctx, 'plans.title'), { reply_markup: keyboard.text(t(ctx, 'menu.back'), 'menu') });
  };

  const showPlan = async (ctx: BotContext, planId: string) => {
    const plan = (await deps.plans.listPricingPlans()).find((candidate) => candidate.id === planId);
    if (!plan) return void (await ctx.reply(t(ctx, 'plan.gone'), { reply_markup: new InlineKeyboard().text(t(ctx, 'plan.back'), 'plans') }));
    const { currency } = await deps.settings.getAppSettings();
    const text = planText(plan, ctx.locale);
    const gb = plan.dataLimitBytes / 1024 ** 3;
    const lines = [
      `<b>${escapeHtml(text.name)}</b>`,
      t(ctx, 'plan.price', { price: formatMoney(plan.price, currency, ctx.locale), duration: duration(ctx.locale, plan.days) }),
      plan.dataLimitBytes > 0 ? t(ctx, 'plan.dataGb', { gb: Math.round(gb * 10) / 10 }) : t(ctx, 'plan.dataUnlimited'),
      plan.deviceLimit === null ? t(ctx, 'plan.devicesUnlimited') : t(ctx, 'plan.devices', { count: plan.deviceLimit }),
      ...text.features.map((feature) => `• ${escapeHtml(feature)}`),
      ...(plan.billing === 'recurring' ? [t(ctx, 'plan.renews')] : []),
    ];
    const keyboard = new InlineKeyboard();
    if (plan.starsPrice !== null) keyboard.text(t(ctx, 'plan.payStars', { stars: plan.starsPrice }), `stars:plan:${plan.id}`).row();
    // Paid on the site, signed in by a one-time link (bot-site-checkout.ts), when the site takes a payment method.
    if (paidOnSite(plan) && (await deps.sitePaymentMethods()).length > 0) keyboard.text(t(ctx, 'plan.paySite'), `${SITE_PAY_PLAN}${plan.id}`).row();
    await ctx.reply(lines.join('\n'), { parse_mode: 'HTML', reply_markup: keyboard.text(t(ctx, 'plan.back'), 'plans') });
  };

  const showLanguages = async (ctx: BotContext) => {
    const keyboard = new InlineKeyboard();
    for (const locale of LOCALES) keyboard.text(`${locale === ctx.locale ? '✓ ' : ''}${LOCALE_NAMES[locale]}`, `language:${locale}`).row();
    await ctx.reply(t(ctx, 'language.choose'), { reply_markup: keyboard });
  };

  const showSupport = async (ctx: BotContext) => {
    const { supportEmail } = await deps.settings.getAppSettings();
    await ctx.reply(t(ctx, 'support.text', { email: supportEmail }), { reply_markup: new InlineKeyboard().text(t(ctx, 'menu.back'), 'menu') });
  };

  installAccountCommands(bot, deps, showMenu);
  installPayments(bot, deps, askToLink);
  installSiteCheckout(bot, deps, askToLink);
  bot.command('start', showMenu);
  bot.command('plans', showPlans);
  bot.command('language', showLanguages);
  bot.command('support', showSupport);

  bot.callbackQuery('menu', async (ctx) => (await stopSpinner(ctx), showMenu(ctx)));
  bot.callbackQuery('plans', async (ctx) => (await stopSpinner(ctx), showPlans(ctx)));
  bot.callbackQuery('language', async (ctx) => (await stopSpinner(ctx), showLanguages(ctx)));
  bot.callbackQuery('support', async (ctx) => (await stopSpinner(ctx), showSupport(ctx)));
  bot.callbackQuery(/^plan:([\w-]{1,64})$/, async (ctx) => (await stopSpinner(ctx), showPlan(ctx, ctx.match[1]!)));
  bot.callbackQuery(/^language:(.+)$/, async (ctx) => {
    const chosen = ctx.match[1];
    await stopSpinner(ctx);
    if (!isLocale(chosen) || !ctx.from) return;
    await deps.chats.setLocale(ctx.from.id, chosen, deps.clock());
    ctx.locale = chosen;
    await ctx.reply(t(ctx, 'language.saved'));
    await showMenu(ctx);
  });
  // They blocked the bot (or unblocked it: their next message clears the mark).
  bot.on('my_chat_member', async (ctx) => {
    if (ctx.myChatMember.new_chat_member.status === 'kicked') await deps.chats.markBlocked(ctx.myChatMember.from.id, deps.clock());
  });
  // A button of an older message that no longer does anything: its spinner stops.
  bot.on('callback_query', stopSpinner);
  // Anything else written in a private chat: the menu.
  bot.on('message', async (ctx) => {
    if (ctx.chat.type === 'private') await showMenu(ctx);
  });
}
