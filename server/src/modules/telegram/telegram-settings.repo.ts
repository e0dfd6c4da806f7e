import type { UserFromGetMe } from 'grammy/types';
import type { Db } from '../../db/knex.js';
import { parseJson, toJson } from '../../db/values.js';

const SETTINGS_ID = 'telegram';

/** The bot as saved: its token and webhook secret sealed with APP_SECRET, what Telegram said of it, and the admin's choices. */
export interface StoredTelegram {
  enabled: boolean;
  tokenSealed: string | null;
  /** The secret Telegram sends with every webhook request (set with setWebhook), sealed. */
  webhookSecretSealed: string | null;
  /** What getMe answered when the token was saved (the bot's id and username). */
  me: UserFromGetMe | null;
  channel: string | null;
  adminChatIds: number[];
}

const EMPTY: StoredTelegram = {
  enabled: false,
  tokenSealed: null,
  webhookSecretSealed: null,
  me: null,
  channel: null,
  adminChatIds: [],
};

/** Long polling's place in a bot's updates (its own row: the poll writes it often, the admin's form never). */
const pollRow = (botId: number) => `telegram_poll:${botId}`;

/** The bot's settings (one row of `settings`), and the updates it has handled (each once). */
export function createTelegramSettingsRepo(db: Db) {
  return {
    async get(): Promise<StoredTelegram> {
      const row = await db('settings').select('value').where({ id: SETTINGS_ID }).first();
      return { ...EMPTY, ...parseJson<Partial<StoredTelegram>>(row?.value, {}) };
    },

    async save(changes: Partial<StoredTelegram>, now: Date): Promise<StoredTelegram> {
      return db.transaction(async (trx) => {
        const row = await trx('settings').select('value').where({ id: SETTINGS_ID }).first();
        const next = { ...EMPTY, ...parseJson<Partial<StoredTelegram>>(row?.value, {}), ...changes };
        await trx('settings')
          .insert({ id: SETTINGS_ID, value: toJson(next), updated_at: now })
          .onConflict('id')
          .merge(['value', 'updated_at']);
        return next;
      });
    },

    /** Long polling: the next update id to ask this bot's updates from (Telegram's `offset`). */
    async pollOffset(botId: number): Promise<number> {
      const row = await db('settings')
        .select('value')
        .where({ id: pollRow(botId) })
        .first();
      return parseJson<{ offset?: number }>(row?.value, {}).offset ?? 0;
    },

    async savePollOffset(botId: number, offset: number, now: Date): Promise<void> {
      await db('settings')
        .insert({ id: pollRow(botId), value: toJson({ offset }), updated_at: now })
        .onConflict('id')
        .merge(['value', 'updated_at']);
    },

    /**
     * Claims an update for handling: true the first time this bot's update id is seen, false for a repeat (a webhook
     * Telegram sent again, a poll asked again after a restart).
     */
    async claimUpdate(botId: number, updateId: number, now: Date): Promise<boolean> {
      const inserted = await db('telegram_updates')
        .insert({ bot_id: botId, update_id: updateId, received_at: now })
        .onConflict(['bot_id', 'update_id'])
        .ignore()
        .returning('update_id');
      return inserted.length > 0;
    },

    /** Gives a claimed update back when handling it failed, so Telegram's retry is handled. */
    async releaseUpdate(botId: number, updateId: number): Promise<void> {
      await db('telegram_updates').where({ bot_id: botId, update_id: updateId }).delete();
    },
  };
}

export type TelegramSettingsRepo = ReturnType<typeof createTelegramSettingsRepo>;
