import { InlineKeyboard, InputFile, type Bot } from 'grammy';
import QRCode from 'qrcode';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { PaymentMethod } from '../../../../shared/billing-schemas.js';
import { BYTES_PER_GB } from '../../../../shared/constants.js';
import { VPN_CLIENT_APPS } from '../../../../shared/deep-links.js';
import type { GiftRedeemed, RedeemGiftCodeBody } from '../../../../shared/gift-codes.js';
import type { Locale } from '../../../../shared/locales.js';
import { formatMoney } from '../../../../shared/money.js';
import type { Plan } from '../../../../shared/plans.js';
import { planText } from '../../../../shared/plan-translations.js';
import { PART_SEPARATOR } from '../../../../shared/separators.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { RequestMeta } from '../auth/index.js';
import type { SettingsService } from '../settings/index.js';
import type { UserProfile } from '../users/index.js';
import { botText, type BotMessageKey } from './bot-messages/index.js';
import type { BotContext } from './bot-commands.js';
import { duration, escapeHtml, stopSpinner, t } from './bot-replies.js';
import type { TelegramChatsRepo } from './telegram-chats.repo.js';
import { installLinking } from './bot-linking.js';
import { canChangePlan, SITE_PAY_ACCOUNT, SITE_PAY_ADD_ONS, SITE_PAY_CHANGE, SITE_PAY_PLAN } from './bot-site-checkout.js';
import type { TelegramLinks } from './telegram-links.service.js';

/** What the commands about the customer's own VPN read and do. */
export interface BotAccountDeps {
  chats: TelegramChatsRepo;
  links: TelegramLinks;
  settings: SettingsService;
  auth: {
    requestCode(email: string, meta: RequestMeta, locale?: Locale): Promise<void>;
    confirmCode(input: { email: string; code: string; referralCode?: string }): Promise<{ user: UserProfile; signedUp: boolean }>;
    signUpWithoutEmail(input: { locale: Locale | null; referralCode?: string; via: 'telegram_bot' | 'mini_app'; telegramId: number }): Promise<UserProfile>;
  };
  users: { findById(id: string): Promise<UserProfile | undefined> };
  plans: { listPublicPlans(): Promise<Plan[]> };
  /** Any plan by id, on sale or not (an account's plan need not be listed). */
  planById(id: string): Promise<Pick<Plan, 'name' | 'tier' | 'features' | 'translations' | 'days' | 'starsPrice'> | undefined>;
  accounts: {
    listStoredAccounts(userId: string): Promise<VpnAccount[]>;
    findAccount(userId: string, id: string): Promise<VpnAccount | undefined>;
    claimPlan(user: UserProfile, planId: string): Promise<VpnAccount>;
  };
  /** Gift codes, redeemed for the linked customer when the bot is opened with one (bot-start.ts). */
  gifts: { redeem(user: UserProfile, body: RedeemGiftCodeBody): Promise<GiftRedeemed> };
  /** The channel a customer must have joined before the trial (`@name` or `-100…`), if the admin set one. */
  trialChannel(): Promise<string | null>;
  /** The site's payment methods on offer now in the store's currency (card, YooKassa, crypto…; never Stars). */
  sitePaymentMethods(): Promise<PaymentMethod[]>;
  /** How many add-ons the customer's account can buy now (billing/add-ons: on sale, for its plan). */
  addOnsOffered(userId: string, accountId: string): Promise<number>;
  publicUrl: URL;
  clock: Clock;
}

/** The apps offered as "open in" buttons under a link: the ones on most phones (an https page opens each: open-page.ts). */
const OPEN_IN_APPS = ['happ', 'hiddify', 'v2rayng', 'streisand'] as const;
/** Channel members who may take the trial (getChatMember's statuses). */
const MEMBER_STATUSES = new Set(['creator', 'administrator', 'member', 'restricted']);

/** The buttons the menu shows for the customer's own VPN: theirs once linked, the way to link before. */
export function accountMenuButtons(ctx: BotContext, keyboard: InlineKeyboard): InlineKeyboard {
  if (!ctx.chat_row?.userId) return keyboard.text(t(ctx, 'menu.link'), 'link').row();
  return keyboard.text(t(ctx, 'menu.my'), 'my').text(t(ctx, 'menu.trial'), 'trial').row();
}

/**
 * The linked customer's own VPN: `/my` (each account's status, expiry, usage and devices; its link with a QR code and
 * https "open in" buttons, as Telegram refuses custom schemes in buttons) and `/trial` (once per person, web and bot
 * alike; a channel's members only, where the admin asks for it). Someone not linked yet is asked to link first
 * (bot-linking.ts).
 */
/** Someone the bot does not know as a customer yet: linking comes first. */
export async function askToLink(ctx: BotContext): Promise<void> {
  const keyboard = new InlineKeyboard().text(t(ctx, 'menu.link'), 'link').row();
  // Someone linked before links that account again (no second customer, nor a second trial, by unlinking first).
  if (!ctx.chat_row?.everLinked) keyboard.text(t(ctx, 'menu.noEmail'), SIGN_UP_WITHOUT_EMAIL).row();
  await ctx.reply(t(ctx, 'link.needed'), { reply_markup: keyboard.text(t(ctx, 'menu.back'), 'menu') });
}

/** The button that makes the Telegram user a customer without an e-mail address (bot-linking.ts). */
export const SIGN_UP_WITHOUT_EMAIL = 'signup:telegram';

export function installAccountCommands(bot: Bot<BotContext>, deps: BotAccountDeps, showMenu: (ctx: BotContext) => Promise<void>): void {
  installLinking(bot, deps, showMenu);
  const siteLinks = deps.publicUrl.protocol === 'https:';
  /** The account's plan in the customer's language (its plan's translation while the plan keeps that name), else its username. */
  const accountPlanName = async (locale: Locale, account: VpnAccount): Promise<string> => {
    if (!account.planName) return account.username;
    const plan = account.planId ? await deps.planById(account.planId) : undefined;
    return plan && plan.name === account.planName ? planText(plan, locale).name : account.planName;
  };
  const customerOf = async (ctx: BotContext) => (ctx.chat_row?.userId ? deps.users.findById(ctx.chat_row.userId) : undefined);

  const connectButtons = async (ctx: BotContext, account: VpnAccount) => {
    const keyboard = new InlineKeyboard();
    // Renewed in Stars here, when its plan is sold for them (the order checks the rest: on sale, not renewing already).
    const stars = account.planId ? (await deps.planById(account.planId))?.starsPrice : null;
    if (stars) keyboard.text(t(ctx, 'account.renewStars', { stars }), `stars:account:${account.id}`).row();
    // Renewed on the site, signed in by a one-time link (bot-site-checkout.ts), when the site takes a payment method.
    const onSite = (await deps.sitePaymentMethods()).length > 0;
    const renewOnSite = account.renewable && onSite;
    if (renewOnSite) keyboard.text(t(ctx, 'account.renewSite'), `${SITE_PAY_ACCOUNT}${account.id}`).row();
    // More devices or traffic, and another plan: in the dashboard's own dialogs, signed in by the same kind of link.
    const userId = ctx.chat_row?.userId;
    if (onSite && userId && (await deps.addOnsOffered(userId, account.id)) > 0)
      keyboard.text(t(ctx, 'account.addOns'), `${SITE_PAY_ADD_ONS}${account.id}`).row();
    if (onSite && canChangePlan(account)) keyboard.text(t(ctx, 'account.changePlan'), `${SITE_PAY_CHANGE}${account.id}`).row();
    if (siteLinks && account.combinedUrl) {
      for (const id of OPEN_IN_APPS) {
        const app = VPN_CLIENT_APPS.find((candidate) => candidate.id === id)!;
        const page = new URL(`/open/${id}`, deps.publicUrl);
        page.searchParams.set('url', account.combinedUrl);
        keyboard.url(t(ctx, 'account.openIn', { app: app.name }), page.href).row();
      }
      if (!renewOnSite) keyboard.url(t(ctx, 'account.renew'), new URL('/dashboard', deps.publicUrl).href).row();
    }
    return keyboard.text(t(ctx, 'menu.my'), 'my').text(t(ctx, 'menu.back'), 'menu');
  };

  /** The account's link as text and as a QR code, with a button per app. */
  const sendAccountLink = async (ctx: BotContext, account: VpnAccount, heading?: string) => {
    if (!account.combinedUrl) return void (await ctx.reply(t(ctx, 'account.notReady'), { reply_markup: new InlineKeyboard().text(t(ctx, 'menu.my'), 'my') }));
    const png = await QRCode.toBuffer(account.combinedUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 512 });
    const caption = [
      heading,
      t(ctx, 'account.caption', { plan: escapeHtml(await accountPlanName(ctx.locale, account)) }),
      `<code>${escapeHtml(account.combinedUrl)}</code>`,
    ]
      .filter(Boolean)
      .join('\n\n');
    await ctx.replyWithPhoto(new InputFile(png, 'vpn-link.png'), { caption, parse_mode: 'HTML', reply_markup: await connectButtons(ctx, account) });
  };

  const showMine = async (ctx: BotContext) => {
    const user = await customerOf(ctx);
    if (!user) return askToLink(ctx);
    const accounts = await deps.accounts.listStoredAccounts(user.id);
    if (accounts.length === 0)
      return void (await ctx.reply(t(ctx, 'my.none'), {
        reply_markup: new InlineKeyboard().text(t(ctx, 'menu.plans'), 'plans').text(t(ctx, 'menu.trial'), 'trial').row().text(t(ctx, 'menu.back'), 'menu'),
      }));
    const keyboard = new InlineKeyboard();
    const names = await Promise.all(accounts.map((account) => accountPlanName(ctx.locale, account)));
    const blocks = accounts.map((account, index) => {
      keyboard.text(t(ctx, 'my.connect', { number: index + 1 }), `account:${account.id}`).row();
      return describeAccount(ctx.locale, account, names[index]!, index + 1);
    });
    await ctx.reply([`<b>${escapeHtml(t(ctx, 'my.title'))}</b>`, ...blocks].join('\n\n'), {
      parse_mode: 'HTML',
      reply_markup: keyboard.text(t(ctx, 'menu.back'), 'menu'),
    });
  };

  const showAccount = async (ctx: BotContext, accountId: string) => {
    const user = await customerOf(ctx);
    if (!user) return askToLink(ctx);
    const account = await deps.accounts.findAccount(user.id, accountId);
    if (!account) return showMine(ctx);
    await sendAccountLink(ctx, account);
  };

  const isChannelMember = async (ctx: BotContext, channel: string) => {
    try {
      return MEMBER_STATUSES.has((await ctx.api.getChatMember(channel, ctx.from!.id)).status);
    } catch {
      // The bot is not an admin of the channel (or it is gone): the admin's setting cannot be checked, so it does not block the trial.
      return true;
    }
  };

  /** The trial's price and the ways to pay it, as a plan's page has them (the order refuses a second trial). */
  const offerPaidTrial = async (ctx: BotContext, plan: Plan) => {
    const { currency } = await deps.settings.getAppSettings();
    const keyboard = new InlineKeyboard();
    if (plan.starsPrice !== null) keyboard.text(t(ctx, 'plan.payStars', { stars: plan.starsPrice }), `stars:plan:${plan.id}`).row();
    const onSite = (await deps.sitePaymentMethods()).length > 0;
    if (onSite) keyboard.text(t(ctx, 'plan.paySite'), `${SITE_PAY_PLAN}${plan.id}`).row();
    const text =
      plan.starsPrice === null && !onSite
        ? t(ctx, 'payLink.unavailable')
        : t(ctx, 'trial.paid', { price: formatMoney(plan.price, currency, ctx.locale), duration: duration(ctx.locale, plan.days) });
    await ctx.reply(text, { reply_markup: keyboard.text(t(ctx, 'menu.back'), 'menu') });
  };

  const claimTrial = async (ctx: BotContext) => {
    const user = await customerOf(ctx);
    if (!user) return askToLink(ctx);
    const plansButton = new InlineKeyboard().text(t(ctx, 'menu.plans'), 'plans').row().text(t(ctx, 'menu.back'), 'menu');
    const trialPlan = (await deps.plans.listPublicPlans()).find((plan) => plan.isTrial);
    if (!trialPlan) return void (await ctx.reply(t(ctx, 'trial.none'), { reply_markup: plansButton }));
    if (user.trialUsed) return void (await ctx.reply(t(ctx, 'trial.used'), { reply_markup: plansButton }));
    const channel = await deps.trialChannel();
    if (channel && !(await isChannelMember(ctx, channel))) {
      const keyboard = new InlineKeyboard();
      if (channel.startsWith('@')) keyboard.url(t(ctx, 'trial.openChannel'), `https://t.me/${channel.slice(1)}`).row();
      return void (await ctx.reply(t(ctx, 'trial.join', { channel }), { reply_markup: keyboard.text(t(ctx, 'trial.joined'), 'trial') }));
    }
    // A trial with a price is paid for as a plan is (Stars here, or the site's methods): once per person all the same.
    if (trialPlan.price > 0) return offerPaidTrial(ctx, trialPlan);
    let account: VpnAccount;
    try {
      account = await deps.accounts.claimPlan(user, trialPlan.id);
    } catch (err) {
      if (err instanceof AppError && err.code === 'trial_used') return void (await ctx.reply(t(ctx, 'trial.used'), { reply_markup: plansButton }));
      if (err instanceof AppError && err.code === 'not_found') return void (await ctx.reply(t(ctx, 'trial.none'), { reply_markup: plansButton }));
      if (err instanceof AppError && err.statusCode >= 500) return void (await ctx.reply(t(ctx, 'trial.failed')));
      throw err;
    }
    await sendAccountLink(ctx, account, t(ctx, 'trial.ready'));
  };

  bot.command('my', showMine);
  bot.command('trial', claimTrial);
  bot.callbackQuery('my', async (ctx) => (await stopSpinner(ctx), showMine(ctx)));
  bot.callbackQuery('trial', async (ctx) => (await stopSpinner(ctx), claimTrial(ctx)));
  bot.callbackQuery(/^account:([\w-]{1,40})$/, async (ctx) => (await stopSpinner(ctx), showAccount(ctx, ctx.match[1]!)));
}

/** One account as `/my` lists it: its number, plan, status, end, data and devices. */
function describeAccount(locale: Locale, account: VpnAccount, planName: string, number: number): string {
  const text = (key: BotMessageKey, values?: Record<string, string | number>) => botText(locale, key, values);
  const gb = (bytes: number) => Math.round((bytes / BYTES_PER_GB) * 10) / 10;
  const expires = account.expireDate
    ? text('my.expires', { date: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(account.expireDate)) })
    : text('my.noExpiry');
  return [
    `<b>${number}. ${escapeHtml(planName)}</b>${PART_SEPARATOR[locale]}${text(`status.${account.status}`)}`,
    expires,
    account.dataLimitBytes
      ? text('my.usage', { used: gb(account.usedTrafficBytes), limit: gb(account.dataLimitBytes) })
      : text('my.usageUnlimited', { used: gb(account.usedTrafficBytes) }),
    account.deviceLimit === null ? text('plan.devicesUnlimited') : text('plan.devices', { count: account.deviceLimit }),
  ].join('\n');
}
