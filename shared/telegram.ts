import { z } from 'zod';

/**
 * The Telegram bot's settings as the admin sees them (`GET /api/admin/telegram`): the token is write-only
 * (`botTokenSet` says whether one is saved), `username` is the bot's as Telegram answered `getMe`.
 */
export interface TelegramSettings {
  enabled: boolean;
  botTokenSet: boolean;
  username: string | null;
  /** How updates reach the bot, and how that is going. */
  webhook: TelegramDelivery;
  /** A channel customers must have joined before the trial (`@name`, or a `-100…` id); null: none. */
  channel: string | null;
  /** Telegram chats told of new orders and problems. */
  adminChatIds: number[];
}

/**
 * `webhook`: Telegram posts each update to `url` (the site has an https address); `polling`: this server asks
 * for updates (the site has no public address); `off`: the bot is off or has no token.
 */
export interface TelegramDelivery {
  mode: 'webhook' | 'polling' | 'off';
  url: string | null;
  /** Updates Telegram holds for the bot (getWebhookInfo), when it could be asked. */
  pendingUpdates: number | null;
  /** Telegram's last error delivering to the webhook, and when. */
  lastError: string | null;
  lastErrorAt: string | null;
}

/** What a bot token looks like (BotFather → /newbot or /token): the bot's id, a colon, 35 characters. */
const BOT_TOKEN = /^\d{5,16}:[A-Za-z0-9_-]{30,64}$/;

/** `PUT /api/admin/telegram`: only the fields given change; `botToken: null` removes the token (and switches the bot off). */
export const UpdateTelegramBody = z
  .object({
    enabled: z.boolean({ error: 'Enabled is true or false' }),
    botToken: z.string().trim().regex(BOT_TOKEN, 'A bot token looks like 123456789:AAE…: copy it from @BotFather').nullable(),
    channel: z
      .string()
      .trim()
      .regex(/^(@[A-Za-z][A-Za-z0-9_]{3,31}|-100\d{5,15})$/, 'The channel is its @username or its -100… id')
      .nullable(),
    adminChatIds: z.array(z.number({ error: 'A chat id is a number' }).int('A chat id is a whole number')).max(20, 'At most 20 admin chats'),
  })
  .partial()
  .strict();
export type UpdateTelegramBody = z.infer<typeof UpdateTelegramBody>;

/**
 * `GET /api/me/telegram`: the store's bot (null while it is off) and the caller's linked Telegram user (null: none).
 * The dashboard offers "Connect Telegram" when there is a bot and no link.
 */
export interface TelegramLinkStatus {
  bot: { username: string } | null;
  linked: { username: string | null; firstName: string | null } | null;
  /** How the linked customer chose to be told things (null: no Telegram linked). */
  preferences: TelegramPreferences | null;
}

/**
 * A linked customer's choices. `noticesByEmail: false`: billing notices (receipts, reminders, data used…) go by
 * Telegram only, while the bot can reach them (it is on and they have not blocked it); else by e-mail as before.
 * `codesByTelegram`: each sign-in code also goes to their Telegram (the e-mail is sent all the same).
 */
export interface TelegramPreferences {
  noticesByEmail: boolean;
  codesByTelegram: boolean;
}

/** `PATCH /api/me/telegram/preferences`: only the choices given change (at least one). */
export const UpdateTelegramPreferencesBody = z
  .object({
    noticesByEmail: z.boolean({ error: 'noticesByEmail is true or false' }),
    codesByTelegram: z.boolean({ error: 'codesByTelegram is true or false' }),
  })
  .partial()
  .strict()
  .refine((body) => body.noticesByEmail !== undefined || body.codesByTelegram !== undefined, { error: 'Give noticesByEmail or codesByTelegram' });
export type UpdateTelegramPreferencesBody = z.infer<typeof UpdateTelegramPreferencesBody>;

/** `POST /api/me/telegram-link`: the one-time link that opens the bot and ties the caller's Telegram to them. */
export interface TelegramLinkUrl {
  url: string;
  expiresAt: string;
}
