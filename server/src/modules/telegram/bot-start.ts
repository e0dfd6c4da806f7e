import { InlineKeyboard } from 'grammy';
import { LOCALE_PREFIX } from '../../../../shared/locales.js';
import { planText } from '../../../../shared/plan-translations.js';
import { PROMO_CODE_PATTERN, PROMO_LINK_PARAM } from '../../../../shared/promo-link.js';
import { REFERRAL_CODE_PATTERN } from '../../../../shared/referrals.js';
import { AppError } from '../../errors.js';
import type { UserProfile } from '../users/index.js';
import type { BotAccountDeps } from './bot-account.js';
import type { BotContext } from './bot-commands.js';
import type { BotMessageKey } from './bot-messages/index.js';
import { escapeHtml, t } from './bot-replies.js';

/** What the bot can be opened with besides a sign-in link: a friend's invitation, a gift code, a promo code. */
export type StartPayload = { kind: 'ref' | 'gift' | 'promo'; code: string };

export type BotStartDeps = Pick<BotAccountDeps, 'chats' | 'users' | 'gifts' | 'planById' | 'publicUrl' | 'clock'>;

/** Telegram's start parameter: up to 64 of A–Z, a–z, 0–9, `_` and `-` (Bot API, deep linking). */
const GIFT_CODE_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

/** `ref_<code>`, `gift_<code>`, `promo_<code>`; null for anything else (the menu). */
export function parseStartPayload(payload: string | null | undefined): StartPayload | null {
  const match = /^(ref|gift|promo)_(.+)$/.exec(payload ?? '');
  if (!match) return null;
  const kind = match[1] as StartPayload['kind'];
  const code = match[2]!;
  const pattern = kind === 'ref' ? REFERRAL_CODE_PATTERN : kind === 'promo' ? PROMO_CODE_PATTERN : GIFT_CODE_PATTERN;
  return pattern.test(code) ? { kind, code } : null;
}

/** The referral code a person opened the bot with and has not used yet: it goes with their sign-up by e-mail code. */
export const pendingReferral = (payload: string | null | undefined): string | undefined => {
  const start = parseStartPayload(payload);
  return start?.kind === 'ref' ? start.code : undefined;
};

const GIFT_REFUSALS: Record<string, BotMessageKey> = {
  gift_code_not_found: 'gift.notFound',
  gift_code_used: 'gift.used',
  gift_plan_unavailable: 'gift.planGone',
};

/**
 * `/start` with a payload (Telegram deep links, `t.me/<bot>?start=…`): a friend's invitation (`ref_<code>`) is kept and
 * goes with the person's sign-up in the bot (an existing customer is told invitations are for new ones); a gift code
 * (`gift_<code>`) is redeemed for the linked customer at once, as on the site; a promo code (`promo_<code>`) is named,
 * with a link to the site's pricing that fills it in. Someone not linked yet is asked to link first, and the payload
 * waits on their chat until they are (`resumeStart`).
 */
export function createStartPayloads(deps: BotStartDeps, askToLink: (ctx: BotContext) => Promise<void>) {
  const siteLinks = deps.publicUrl.protocol === 'https:';

  const redeemGift = async (ctx: BotContext, user: UserProfile, code: string) => {
    try {
      const redeemed = await deps.gifts.redeem(user, { code });
      // Its plan's name in the customer's language while the plan keeps the name the code was made for.
      const plan = await deps.planById(redeemed.planId);
      const planName = plan && plan.name === redeemed.planName ? planText(plan, ctx.locale).name : redeemed.planName;
      await ctx.reply(t(ctx, 'gift.redeemed', { plan: escapeHtml(planName) }), {
        parse_mode: 'HTML',
        reply_markup: new InlineKeyboard().text(t(ctx, 'menu.my'), 'my'),
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await ctx.reply(t(ctx, GIFT_REFUSALS[err.code] ?? 'gift.failed'));
    }
  };

  const showPromo = async (ctx: BotContext, code: string) => {
    const keyboard = new InlineKeyboard();
    const pricing = new URL(`${LOCALE_PREFIX[ctx.locale]}/pricing`, deps.publicUrl);
    pricing.searchParams.set(PROMO_LINK_PARAM, code);
    if (siteLinks) keyboard.url(t(ctx, 'promo.open'), pricing.href).row();
    await ctx.reply(t(ctx, 'promo.ready', { code: escapeHtml(code) }), { parse_mode: 'HTML', reply_markup: keyboard.text(t(ctx, 'menu.plans'), 'plans') });
  };

  /** Uses a payload for a linked customer; `signedUp`: they became a customer just now (a referral then counts). */
  const use = async (ctx: BotContext, user: UserProfile, start: StartPayload, signedUp: boolean) => {
    if (start.kind === 'gift') return redeemGift(ctx, user, start.code);
    if (start.kind === 'promo') return showPromo(ctx, start.code);
    if (!signedUp) await ctx.reply(t(ctx, 'start.referralExisting'));
  };

  return {
    /** `/start <payload>`: true when it was one of these (the menu follows), false to leave it to the others. */
    async handle(ctx: BotContext, payload: string): Promise<boolean> {
      const start = parseStartPayload(payload);
      if (!start || !ctx.from) return false;
      const user = ctx.chat_row?.userId ? await deps.users.findById(ctx.chat_row.userId) : undefined;
      if (user) {
        await use(ctx, user, start, false);
        return true;
      }
      await deps.chats.setStartPayload(ctx.from.id, payload, deps.clock());
      if (start.kind === 'ref') await ctx.reply(t(ctx, 'start.referred'));
      else await askToLink(ctx);
      return true;
    },

    /** Just linked (`signedUp`: as a new customer): what they opened the bot with is used now, once. */
    async resume(ctx: BotContext, user: UserProfile, signedUp: boolean): Promise<void> {
      const start = parseStartPayload(ctx.chat_row?.startPayload);
      if (!start || !ctx.from) return;
      await deps.chats.setStartPayload(ctx.from.id, null, deps.clock());
      await use(ctx, user, start, signedUp);
    },
  };
}

export type StartPayloads = ReturnType<typeof createStartPayloads>;
