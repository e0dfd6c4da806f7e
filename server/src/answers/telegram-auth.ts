import { z } from 'zod';
import { MeSchema } from '../../../shared/auth.js';
import { PAY_LINK_ACTIONS, type PayLinkSignInResponse, type TelegramLinkedResponse, type TelegramSignInResponse } from '../../../shared/telegram-auth.js';

/** What the Mini App's routes answer: the web app gets its session as cookies, as after an e-mail code. */

/** `POST /api/auth/telegram`: the customer signed in. */
export const TelegramSignedInAnswer = z.object({ user: MeSchema }) satisfies z.ZodType<TelegramSignInResponse>;

/** `POST /api/me/telegram`: the Telegram user linked to the caller. */
export const TelegramLinkedAnswer = z.object({
  linked: z.literal(true),
  telegram: z.object({ id: z.number().int(), username: z.string().nullable(), firstName: z.string() }),
}) satisfies z.ZodType<TelegramLinkedResponse>;

/** `POST /api/auth/pay-link`: the customer signed in by a payment link, and the plan (or their account) its checkout is for. */
export const PayLinkSignedInAnswer = z.union([
  z.object({ user: MeSchema, planId: z.string() }),
  z.object({ user: MeSchema, accountId: z.string(), action: z.enum(PAY_LINK_ACTIONS).optional() }),
]) satisfies z.ZodType<PayLinkSignInResponse>;
