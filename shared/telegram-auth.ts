import { z } from 'zod';
import type { Me } from './auth.js';

/**
 * The longest launch data taken from a Telegram Mini App. Telegram's `initData` is a few hundred characters (the user
 * as JSON, the signing time, the hash and signature); a string of 4 KB is not Telegram's.
 */
export const INIT_DATA_MAX_LENGTH = 4096;

/**
 * `POST /api/auth/telegram` and `POST /api/me/telegram`: the Mini App's `initData` exactly as Telegram gave it (the
 * `tgWebAppData` of its URL, or `Telegram.WebApp.initData`), checked against the bot's token on the server.
 */
export const TelegramInitDataBody = z.object({
  initData: z
    .string({ error: 'initData is required: the Mini App’s launch data from Telegram' })
    .min(1, 'initData is required: the Mini App’s launch data from Telegram')
    .max(INIT_DATA_MAX_LENGTH, `initData is at most ${INIT_DATA_MAX_LENGTH} characters`),
});
export type TelegramInitDataBody = z.infer<typeof TelegramInitDataBody>;

/**
 * `POST /api/auth/telegram`: with `signUp: true`, a Telegram user linked to no customer becomes a new customer without
 * an e-mail address (one who was linked before is refused: they link that account again).
 */
export const TelegramSignInBody = TelegramInitDataBody.extend({ signUp: z.boolean().optional() });
export type TelegramSignInBody = z.infer<typeof TelegramSignInBody>;

/** `POST /api/auth/telegram`: the customer the Telegram user is linked to (the session is in the cookies). */
export interface TelegramSignInResponse {
  user: Me;
}

/** `POST /api/me/telegram`: the Telegram user now linked to the caller. */
export interface TelegramLinkedResponse {
  linked: true;
  telegram: { id: number; username: string | null; firstName: string };
}

/** The longest payment-link token taken: the bot's are 32 characters of base64url. */
export const PAY_LINK_TOKEN_MAX_LENGTH = 128;

/** `POST /api/auth/pay-link`: the token of a payment link from the bot (the last part of `/pay/<token>`). */
export const PayLinkBody = z.object({
  token: z
    .string({ error: 'token is required: the last part of the payment link from the bot' })
    .min(1, 'token is required: the last part of the payment link from the bot')
    .max(PAY_LINK_TOKEN_MAX_LENGTH, `token is at most ${PAY_LINK_TOKEN_MAX_LENGTH} characters`)
    .regex(/^[A-Za-z0-9_-]+$/, 'token is the last part of the payment link: letters, digits, - and _'),
});
export type PayLinkBody = z.infer<typeof PayLinkBody>;

/**
 * `POST /api/auth/pay-link`: the customer the link was made for, signed in (the session is in the cookies), and what
 * the checkout opens for: a plan to buy, or one of their accounts to renew.
 */
export type PayLinkSignInResponse = { user: Me } & ({ planId: string } | { accountId: string; action?: PayLinkAction });

/** What a payment link opens for one of the customer's accounts besides its renewal: its add-ons, or a change of plan. */
export const PAY_LINK_ACTIONS = ['add_ons', 'change_plan'] as const;
export type PayLinkAction = (typeof PAY_LINK_ACTIONS)[number];
