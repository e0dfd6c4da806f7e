import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { TelegramPerson } from './telegram-chats.repo.js';

/**
 * A Telegram Mini App's launch data (`initData`), checked as Telegram documents it
 * (core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app): every field but `hash`, sorted by key,
 * `key=value` joined by line feeds, signed with HMAC-SHA-256 under the key HMAC-SHA-256("WebAppData", bot token).
 * Only Telegram and this server know the token, so a matching hash means Telegram vouches for the user it names.
 */

/** How long launch data is taken after Telegram signed it: a day, so data copied out of a session cannot be used for long. */
export const INIT_DATA_MAX_AGE_SECONDS = 24 * 60 * 60;
/** How far ahead of this server's clock a signing time may be (the phone's and Telegram's clocks are not ours). */
export const INIT_DATA_CLOCK_SKEW_SECONDS = 60;

/** What is wrong with launch data that is refused. */
export type InitDataProblem = 'unreadable' | 'forged' | 'expired' | 'ahead';

/** Why launch data was refused, worded for the person who opened the Mini App. */
export const INIT_DATA_PROBLEMS: Readonly<Record<InitDataProblem, string>> = {
  unreadable: 'This is not launch data from Telegram: open the app from the bot in Telegram.',
  forged: 'Telegram’s signature on this launch data does not match this store’s bot.',
  expired: 'This launch data is more than a day old: open the app from the bot in Telegram again.',
  ahead: 'This launch data is dated in the future: check the server’s clock.',
};

export type InitDataCheck = { ok: true; person: TelegramPerson; signedAt: Date } | { ok: false; problem: InitDataProblem };

/** Telegram's hash: the hex of a SHA-256 HMAC (checked before it is decoded: Node's hex decoding stops at a bad character). */
const HASH = /^[0-9a-f]{64}$/i;

/** The user of the launch data as Telegram writes it (JSON; other fields are ignored). */
const InitDataUser = z.looseObject({
  id: z.number().int().positive(),
  first_name: z.string(),
  username: z.string().optional(),
  language_code: z.string().optional(),
});

const refused = (problem: InitDataProblem): InitDataCheck => ({ ok: false, problem });

/** The HMAC key of a bot's launch data: HMAC-SHA-256 of the token under the constant "WebAppData". */
const signingKey = (botToken: string) => createHmac('sha256', 'WebAppData').update(botToken).digest();

/** The fields but `hash`, sorted by key (by code unit, as Telegram does), as `key=value` lines. */
function dataCheckString(fields: ReadonlyArray<[string, string]>): string {
  return fields
    .filter(([key]) => key !== 'hash')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('\n');
}

function parseUser(json: string | null): TelegramPerson | null {
  if (json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  const user = InitDataUser.safeParse(value);
  if (!user.success) return null;
  const { id, first_name, username, language_code } = user.data;
  return { id, first_name, ...(username ? { username } : {}), ...(language_code ? { language_code } : {}) };
}

/**
 * Checks launch data against the bot's token at `now`: the hash first (compared in constant time), then its age (at
 * most a day old, at most a minute ahead), then the user it names. Never throws.
 */
export function checkInitData(raw: string, botToken: string, now: Date): InitDataCheck {
  const fields = [...new URLSearchParams(raw)];
  const hash = fields.find(([key]) => key === 'hash')?.[1];
  // Each field once (Telegram never repeats one; a repeated field would be signed as two lines).
  if (!hash || !HASH.test(hash) || new Set(fields.map(([key]) => key)).size !== fields.length) return refused('unreadable');
  const expected = createHmac('sha256', signingKey(botToken)).update(dataCheckString(fields)).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return refused('forged');

  const authDate = Number(fields.find(([key]) => key === 'auth_date')?.[1]);
  if (!Number.isSafeInteger(authDate) || authDate <= 0) return refused('unreadable');
  const ageSeconds = now.getTime() / 1000 - authDate;
  if (ageSeconds > INIT_DATA_MAX_AGE_SECONDS) return refused('expired');
  if (ageSeconds < -INIT_DATA_CLOCK_SKEW_SECONDS) return refused('ahead');

  const person = parseUser(fields.find(([key]) => key === 'user')?.[1] ?? null);
  if (!person) return refused('unreadable');
  return { ok: true, person, signedAt: new Date(authDate * 1000) };
}
