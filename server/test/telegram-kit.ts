import { afterAll, beforeAll } from 'vitest';
import { appAddress, postToApp, useBillingFixture, type BillingFixture } from './billing-fixture.js';
import type { TestDatabaseKind } from './databases.js';
import { startFakeTelegram, type FakeTelegram } from './fake-telegram/index.js';
import type { FakeBotInfo } from './fake-telegram/handle-types.js';

/** A Telegram user as an update names them. */
export interface TelegramSender {
  id: number;
  first_name?: string;
  username?: string;
  language_code?: string;
}

const from = (person: TelegramSender) => ({
  id: person.id,
  is_bot: false,
  first_name: person.first_name ?? 'Ann',
  ...(person.username ? { username: person.username } : {}),
  ...(person.language_code ? { language_code: person.language_code } : {}),
});
const privateChat = (person: TelegramSender) => ({ id: person.id, type: 'private', first_name: person.first_name ?? 'Ann' });

/** A private chat's message from a person, as Telegram sends it (a command gets its bot_command entity). */
export const message = (person: TelegramSender, text: string, updateId: number) => ({
  update_id: updateId,
  message: {
    message_id: updateId,
    date: 1_760_000_000,
    chat: privateChat(person),
    from: from(person),
    text,
    ...(text.startsWith('/') ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }] } : {}),
  },
});

/** A press of an inline button, as Telegram sends it. */
export const press = (person: TelegramSender, data: string, updateId: number) => ({
  update_id: updateId,
  callback_query: {
    id: `cb${updateId}`,
    from: from(person),
    chat_instance: '1',
    data,
    message: { message_id: 1, date: 1_760_000_000, chat: privateChat(person), text: 'menu' },
  },
});

/** The inline buttons of a sent message, row after row. */
export const buttons = (sent: { replyMarkup?: unknown }) =>
  ((sent.replyMarkup as { inline_keyboard?: Array<Array<{ text: string; callback_data?: string; url?: string }>> } | undefined)?.inline_keyboard ?? []).flat();

export interface TelegramFixture {
  f: BillingFixture;
  /** The fake Bot API (started before the app, which is pointed at it). */
  telegram(): FakeTelegram;
  /** Posts an update to the app's webhook as Telegram does, with the secret the app set (or the one given). */
  deliver(update: Record<string, unknown>, secretToken?: string): Promise<{ status: number; body: Record<string, unknown> }>;
  /** A person writes `text` (or presses the button `data`); answers what the bot sent them because of it. */
  say(person: TelegramSender, text: string): Promise<FakeTelegram['sent']>;
  tap(person: TelegramSender, data: string): Promise<FakeTelegram['sent']>;
  /**
   * The webhook Telegram keeps moved to the listening app's own address, with the same secret (the app registered its
   * PUBLIC_URL, which no test listens on): for what Telegram itself sends, such as a payment's updates (payInvoice).
   */
  pointWebhookAtApp(): Promise<void>;
}

/** The billing fixture's app (with `bot.env` more) and the fake Bot API started first, `bot` known to it; updates come by webhook. */
export function useTelegramFixture(kind: TestDatabaseKind, bot: { token: string; info: FakeBotInfo; env?: Record<string, string> }): TelegramFixture {
  let telegram: FakeTelegram;
  beforeAll(async () => {
    telegram = await startFakeTelegram();
    telegram.addBot(bot.token, bot.info);
  });
  afterAll(async () => telegram?.close());
  const f = useBillingFixture(kind, { env: () => ({ TELEGRAM_API_URL: telegram.url, TELEGRAM_UPDATES: 'webhook', ...bot.env }) });
  let updateId = 10_000;
  const deliver = (update: Record<string, unknown>, secretToken = telegram.webhookOf(bot.token)?.secretToken ?? '') =>
    postToApp(appAddress(f, '/api/telegram/webhook'), JSON.stringify(update), secretToken ? { 'x-telegram-bot-api-secret-token': secretToken } : {});
  async function exchange(person: TelegramSender, update: Record<string, unknown>) {
    const before = telegram.sent.length;
    const res = await deliver(update);
    if (res.status !== 200) throw new Error(`the webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
    return telegram.sent.slice(before).filter((sent) => sent.chatId === person.id);
  }
  return {
    f,
    telegram: () => telegram,
    deliver,
    say: (person, text) => exchange(person, message(person, text, (updateId += 1))),
    tap: (person, data) => exchange(person, press(person, data, (updateId += 1))),
    async pointWebhookAtApp() {
      const hook = telegram.webhookOf(bot.token);
      if (!hook) throw new Error('the app has set no webhook');
      const res = await fetch(`${telegram.url}/bot${bot.token}/setWebhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          url: appAddress(f, '/api/telegram/webhook'),
          secret_token: hook.secretToken ?? undefined,
          allowed_updates: hook.allowedUpdates,
        }),
      });
      if (!res.ok) throw new Error(`setWebhook answered ${res.status}: ${await res.text()}`);
    },
  };
}
