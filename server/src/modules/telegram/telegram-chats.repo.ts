import type { Locale } from '../../../../shared/locales.js';
import { isLocale } from '../../../../shared/locales.js';
import type { Db } from '../../db/knex.js';
import { toBool, toDateOrNull } from '../../db/values.js';

/** A Telegram user who wrote to the bot, as Telegram names them in an update. */
export interface TelegramPerson {
  id: number;
  username?: string;
  first_name: string;
  language_code?: string;
}

/** Where a person is in linking by e-mail code inside the bot: asked for their address, then for the code sent to it. */
export type Awaiting = { step: 'email' } | { step: 'code'; email: string } | null;

export interface TelegramChat {
  telegramId: number;
  username: string | null;
  firstName: string | null;
  /** The customer they are linked to (null until linked). */
  userId: string | null;
  /** The language they chose in the bot; null: their Telegram app's. */
  locale: Locale | null;
  languageCode: string | null;
  blockedAt: Date | null;
  awaiting: Awaiting;
  /** What they opened the bot with (`ref_…`, `gift_…`, `promo_…`), kept until it can be used (bot-start.ts). */
  startPayload: string | null;
  /** Linked to a customer now or before (migration 050): they are not made a new customer without an e-mail. */
  everLinked: boolean;
  /** The linked customer's choices (migration 051): billing notices by e-mail too (else by Telegram only, while it reaches them). */
  noticesByEmail: boolean;
  /** …and their sign-in codes to this chat too. */
  codesByTelegram: boolean;
}

/** How a linked customer chose to be told things (see TelegramChat). */
export type DeliveryChoices = Pick<TelegramChat, 'noticesByEmail' | 'codesByTelegram'>;
const DEFAULT_CHOICES: DeliveryChoices = { noticesByEmail: true, codesByTelegram: false };

/** What linking did: `holds_customer` when the Telegram user is the only way into a customer without an e-mail (not moved). */
export type LinkOutcome = 'linked' | 'unknown_chat' | 'holds_customer';

const toAwaiting = (row: Record<string, unknown>): Awaiting =>
  row.awaiting === 'email'
    ? { step: 'email' }
    : row.awaiting === 'code' && typeof row.awaiting_email === 'string'
      ? { step: 'code', email: row.awaiting_email }
      : null;

/** The choices the linked customer made; the defaults when they made none (or the chat was someone else's when they were made). */
const toChoices = (row: Record<string, unknown>): DeliveryChoices =>
  row.user_id && row.choices_user_id === row.user_id
    ? { noticesByEmail: toBool(row.notices_by_email), codesByTelegram: toBool(row.codes_by_telegram) }
    : DEFAULT_CHOICES;

const toChat = (row: Record<string, unknown>): TelegramChat => ({
  telegramId: Number(row.telegram_id),
  username: (row.username as string | null) ?? null,
  firstName: (row.first_name as string | null) ?? null,
  userId: (row.user_id as string | null) ?? null,
  locale: isLocale(row.locale) ? row.locale : null,
  languageCode: (row.language_code as string | null) ?? null,
  blockedAt: toDateOrNull(row.blocked_at),
  awaiting: toAwaiting(row),
  startPayload: (row.start_payload as string | null) ?? null,
  everLinked: toBool(row.ever_linked),
  ...toChoices(row),
});

/** The people who wrote to the bot: kept as Telegram last named them, with their choice of language. */
export function createTelegramChatsRepo(db: Db) {
  return {
    /**
     * Records that `person` wrote (their name and app language as Telegram sends them now; writing again means they
     * no longer block the bot) and answers their row. Writes only what changed.
     */
    async seen(person: TelegramPerson, now: Date): Promise<TelegramChat> {
      const fields = { username: person.username ?? null, first_name: person.first_name.slice(0, 128), language_code: person.language_code ?? null };
      const row = await db('telegram_chats').where({ telegram_id: person.id }).first();
      if (!row) {
        await db('telegram_chats')
          .insert({ telegram_id: person.id, ...fields, created_at: now, updated_at: now })
          .onConflict('telegram_id')
          .merge({ ...fields, blocked_at: null, updated_at: now });
        return {
          telegramId: person.id,
          username: fields.username,
          firstName: fields.first_name,
          userId: null,
          locale: null,
          languageCode: fields.language_code,
          blockedAt: null,
          awaiting: null,
          startPayload: null,
          everLinked: false,
          ...DEFAULT_CHOICES,
        };
      }
      const same = row.username === fields.username && row.first_name === fields.first_name && row.language_code === fields.language_code && !row.blocked_at;
      if (!same)
        await db('telegram_chats')
          .where({ telegram_id: person.id })
          .update({ ...fields, blocked_at: null, updated_at: now });
      return { ...toChat(row), username: fields.username, firstName: fields.first_name, languageCode: fields.language_code, blockedAt: null };
    },

    async setLocale(telegramId: number, locale: Locale, now: Date): Promise<void> {
      await db('telegram_chats').where({ telegram_id: telegramId }).update({ locale, updated_at: now });
    },

    /** They blocked the bot (Telegram answered 403): nothing more is sent to them until they write again. */
    async markBlocked(telegramId: number, now: Date): Promise<void> {
      await db('telegram_chats').where({ telegram_id: telegramId }).update({ blocked_at: now, updated_at: now });
    },

    /**
     * Links the Telegram user to the customer: a customer has one Telegram and a Telegram user one customer, so the
     * customer's previous chat (if another) is unlinked in the same transaction. A Telegram user linked to a customer
     * without an e-mail stays theirs (it is how that customer signs in): moving it would lose them.
     */
    async link(telegramId: number, userId: string, now: Date): Promise<LinkOutcome> {
      return db.transaction(async (trx) => {
        const chat = await trx('telegram_chats').where({ telegram_id: telegramId }).forUpdate().first<{ user_id: string | null } | undefined>('user_id');
        if (!chat) return 'unknown_chat';
        if (chat.user_id && chat.user_id !== userId) {
          const holder = await trx('user_profiles').where({ id: chat.user_id }).first<{ email: string | null } | undefined>('email');
          if (holder && holder.email === null) return 'holds_customer';
        }
        await trx('telegram_chats').where({ user_id: userId }).whereNot({ telegram_id: telegramId }).update({ user_id: null, updated_at: now });
        await trx('telegram_chats')
          .where({ telegram_id: telegramId })
          .update({ user_id: userId, ever_linked: true, awaiting: null, awaiting_email: null, updated_at: now });
        return 'linked';
      });
    },

    /** Where they are in linking by e-mail code (null: not linking). */
    async setAwaiting(telegramId: number, awaiting: Awaiting, now: Date): Promise<void> {
      await db('telegram_chats')
        .where({ telegram_id: telegramId })
        .update({ awaiting: awaiting?.step ?? null, awaiting_email: awaiting?.step === 'code' ? awaiting.email : null, updated_at: now });
    },

    async setStartPayload(telegramId: number, payload: string | null, now: Date): Promise<void> {
      await db('telegram_chats').where({ telegram_id: telegramId }).update({ start_payload: payload, updated_at: now });
    },

    /**
     * The customer's choices of how they are told things, on their linked chat (the ones not given stay as they are);
     * false when no chat is linked to them.
     */
    async setChoices(userId: string, choices: Partial<DeliveryChoices>, now: Date): Promise<boolean> {
      return db.transaction(async (trx) => {
        const row = (await trx('telegram_chats').where({ user_id: userId }).forUpdate().first()) as Record<string, unknown> | undefined;
        if (!row) return false;
        const made = toChoices(row);
        await trx('telegram_chats')
          .where({ telegram_id: row.telegram_id })
          .update({
            notices_by_email: choices.noticesByEmail ?? made.noticesByEmail,
            codes_by_telegram: choices.codesByTelegram ?? made.codesByTelegram,
            choices_user_id: userId,
            updated_at: now,
          });
        return true;
      });
    },

    /** Unlinks the customer's Telegram (they can link again, or another). */
    async unlinkUser(userId: string, now: Date): Promise<boolean> {
      return (await db('telegram_chats').where({ user_id: userId }).update({ user_id: null, updated_at: now })) > 0;
    },

    /** The chat linked to the customer, if any. */
    async findByUser(userId: string): Promise<TelegramChat | undefined> {
      const row = await db('telegram_chats').where({ user_id: userId }).first();
      return row && toChat(row);
    },

    async find(telegramId: number): Promise<TelegramChat | undefined> {
      const row = await db('telegram_chats').where({ telegram_id: telegramId }).first();
      return row && toChat(row);
    },
  };
}

export type TelegramChatsRepo = ReturnType<typeof createTelegramChatsRepo>;
