import { createHmac, randomBytes } from 'node:crypto';

/** A Telegram user as a Mini App's launch data names them. */
export interface MiniAppUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/**
 * A Mini App's launch data (`initData`) as Telegram's app hands it to the page (`tgWebAppData` in the URL's hash):
 * the user as JSON, when it was signed, a query id, Telegram's Ed25519 `signature` (random here: no one checks it
 * without Telegram's key) and the `hash`, the bot's HMAC of the other fields — written here from Telegram's
 * documentation, apart from the server's own check (modules/telegram/init-data.ts), so the two are tested against
 * each other. `fields` replaces or adds fields before signing (`undefined` leaves one out).
 */
export function signMiniAppLaunch(
  botToken: string,
  user: MiniAppUser,
  options: { authDate?: number; fields?: Record<string, string | undefined> } = {},
): string {
  const given: Record<string, string | undefined> = {
    query_id: `AA${randomBytes(12).toString('base64url')}`,
    user: JSON.stringify({ allows_write_to_pm: true, ...user }),
    auth_date: String(options.authDate ?? Math.floor(Date.now() / 1000)),
    signature: randomBytes(64).toString('base64url'),
    ...options.fields,
  };
  const fields = Object.fromEntries(Object.entries(given).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const checked = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  const hash = createHmac('sha256', secret).update(checked).digest('hex');
  return Object.entries({ ...fields, hash })
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
}

/** Launch data with one field changed after Telegram signed it (the hash no longer matches). */
export function tamperMiniAppLaunch(initData: string, key: string, value: string): string {
  const params = new URLSearchParams(initData);
  params.set(key, value);
  return params.toString();
}
