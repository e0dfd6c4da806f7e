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

/** `POST /api/auth/telegram`: the customer the Telegram user is linked to (the session is in the cookies). */
export interface TelegramSignInResponse {
  user: Me;
}

/** `POST /api/me/telegram`: the Telegram user now linked to the caller. */
export interface TelegramLinkedResponse {
  linked: true;
  telegram: { id: number; username: string | null; firstName: string };
}
