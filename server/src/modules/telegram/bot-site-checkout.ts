import { InlineKeyboard, type Bot } from 'grammy';
import { planText } from '../../../../shared/plan-translations.js';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { Plan } from '../../../../shared/plans.js';
import type { BotAccountDeps } from './bot-account.js';
import type { BotContext } from './bot-commands.js';
import { stopSpinner, t } from './bot-replies.js';
import type { PayLinkTarget } from './telegram-pay-links.repo.js';
import { PAY_LINK_TTL_SECONDS, type TelegramPayLinks } from './telegram-pay-links.service.js';

/** What paying on the site from the bot reads and does. */
export interface BotSiteCheckoutDeps extends Pick<BotAccountDeps, 'users' | 'accounts' | 'sitePaymentMethods' | 'publicUrl' | 'addOnsOffered'> {
  plans: { listPricingPlans(): Promise<Plan[]>; listPublicPlans(): Promise<Plan[]> };
  payLinks: Pick<TelegramPayLinks, 'createPayLink'>;
}

/** The callback data of the buttons that ask for a payment link (a plan's, an account's). */
export const SITE_PAY_PLAN = 'site-pay:plan:';
export const SITE_PAY_ACCOUNT = 'site-pay:account:';
/** An account's add-ons, and a change of its plan, in the dashboard's dialogs (the link's `action`). */
export const SITE_PAY_ADD_ONS = 'site-pay:add-ons:';
export const SITE_PAY_CHANGE = 'site-pay:change:';

/** An account whose plan may change (as the dashboard offers it; the change decides the rest): on a plan, paid for, no change waiting. */
export const canChangePlan = (account: Pick<VpnAccount, 'planId' | 'status' | 'scheduledPlanChange'>) =>
  account.planId !== null && account.status !== 'suspended' && !account.scheduledPlanChange;

/** A plan the site's checkout sells: on sale and not free (a free plan is claimed, not paid). */
export const paidOnSite = (plan: Pick<Plan, 'price' | 'isTrial'>) => plan.price > 0 && !plan.isTrial;

/** The trial with a price: bought as a plan is (`/trial` offers it), not listed with the plans. */
const paidTrial = (plan: Pick<Plan, 'price' | 'isTrial'>) => plan.price > 0 && plan.isTrial;

/**
 * Paying with the site's own methods (card, YooKassa, crypto…) from the bot: "💳 Pay by card or other ways" on a plan,
 * "💳 Renew by card or other ways" under one of the customer's accounts. Pressed by a linked customer, the bot answers
 * with a one-time link (telegram-pay-links.service.ts) that signs them in on the site, in their language, and opens
 * the checkout for that plan or that renewal. Only their own account is ever put in a link; someone not linked yet is
 * asked to link first, and no link is made.
 */
export function installSiteCheckout(bot: Bot<BotContext>, deps: BotSiteCheckoutDeps, askToLink: (ctx: BotContext) => Promise<void>): void {
  // Telegram refuses a button to http://localhost: on a site without https the link is sent as text.
  const siteLinks = deps.publicUrl.protocol === 'https:';
  const customerOf = async (ctx: BotContext) => (ctx.chat_row?.userId ? deps.users.findById(ctx.chat_row.userId) : undefined);
  /** Back to where the button was: the plans, or the customer's VPN. */
  const backTo = (ctx: BotContext, target: PayLinkTarget, keyboard = new InlineKeyboard()) =>
    'planId' in target ? keyboard.text(t(ctx, 'plan.back'), 'plans') : keyboard.text(t(ctx, 'menu.my'), 'my');

  /** The name the link is for: the plan on sale, or the customer's own renewable account; undefined when there is none. */
  const nameOf = async (ctx: BotContext, userId: string, target: PayLinkTarget): Promise<string | undefined> => {
    if ('planId' in target) {
      const plan = (await deps.plans.listPricingPlans()).find((candidate) => candidate.id === target.planId);
      if (plan) return paidOnSite(plan) ? planText(plan, ctx.locale).name : undefined;
      const trial = (await deps.plans.listPublicPlans()).find((candidate) => candidate.id === target.planId);
      return trial && paidTrial(trial) ? planText(trial, ctx.locale).name : undefined;
    }
    // Someone else's account is not found, as one that does not exist.
    const account = await deps.accounts.findAccount(userId, target.accountId);
    if (!account) return undefined;
    // Its plan's name in the customer's language while the plan on sale keeps the name it was bought under.
    const plan = account.planId ? (await deps.plans.listPricingPlans()).find((candidate) => candidate.id === account.planId) : undefined;
    const name = plan && plan.name === account.planName ? planText(plan, ctx.locale).name : (account.planName ?? account.username);
    if (target.action === 'add_ons') return (await deps.addOnsOffered(userId, account.id)) > 0 ? name : undefined;
    if (target.action === 'change_plan') return canChangePlan(account) ? name : undefined;
    return account.renewable ? name : undefined;
  };

  const sendPayLink = async (ctx: BotContext, target: PayLinkTarget) => {
    const user = await customerOf(ctx);
    if (!user) return askToLink(ctx);
    if ((await deps.sitePaymentMethods()).length === 0) return void (await ctx.reply(t(ctx, 'payLink.unavailable'), { reply_markup: backTo(ctx, target) }));
    const name = await nameOf(ctx, user.id, target);
    const action = 'accountId' in target ? target.action : undefined;
    if (name === undefined)
      return void (await ctx.reply(t(ctx, 'planId' in target ? 'plan.gone' : action ? 'payLink.notChangeable' : 'payLink.notRenewable'), {
        reply_markup: backTo(ctx, target),
      }));
    const { url } = await deps.payLinks.createPayLink(user, target, ctx.locale);
    const ready = action === 'add_ons' ? 'payLink.addOnsReady' : action === 'change_plan' ? 'payLink.changeReady' : 'payLink.ready';
    const text = t(ctx, ready, { plan: name, minutes: PAY_LINK_TTL_SECONDS / 60 });
    if (!siteLinks) return void (await ctx.reply(`${text}\n\n${url}`, { reply_markup: backTo(ctx, target), link_preview_options: { is_disabled: true } }));
    await ctx.reply(text, { reply_markup: backTo(ctx, target, new InlineKeyboard().url(t(ctx, 'payLink.open'), url).row()) });
  };

  bot.callbackQuery(new RegExp(`^${SITE_PAY_PLAN}([\\w-]{1,64})$`), async (ctx) => (await stopSpinner(ctx), sendPayLink(ctx, { planId: ctx.match[1]! })));
  bot.callbackQuery(new RegExp(`^${SITE_PAY_ACCOUNT}([\\w-]{1,64})$`), async (ctx) => (await stopSpinner(ctx), sendPayLink(ctx, { accountId: ctx.match[1]! })));
  bot.callbackQuery(new RegExp(`^${SITE_PAY_ADD_ONS}([\\w-]{1,64})$`), async (ctx) => {
    await stopSpinner(ctx);
    await sendPayLink(ctx, { accountId: ctx.match[1]!, action: 'add_ons' });
  });
  bot.callbackQuery(new RegExp(`^${SITE_PAY_CHANGE}([\\w-]{1,64})$`), async (ctx) => {
    await stopSpinner(ctx);
    await sendPayLink(ctx, { accountId: ctx.match[1]!, action: 'change_plan' });
  });
}
