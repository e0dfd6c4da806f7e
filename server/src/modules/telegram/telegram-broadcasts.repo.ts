import type { BroadcastAudience, BroadcastStatus, TelegramBroadcast } from '../../../../shared/telegram-broadcasts.js';
import { isLocale, type Locale } from '../../../../shared/locales.js';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import { toDateOrNull } from '../../db/values.js';

/** A chat a broadcast may go to: its id and the language the bot writes to it in (chosen, else its app's code). */
export interface BroadcastCandidate {
  telegramId: number;
  locale: string | null;
  languageCode: string | null;
}

/** A recipient's state: `sending` is claimed, before the call to Telegram; one a crash left there is not sent again. */
export type RecipientStatus = 'pending' | 'sending' | 'sent' | 'blocked' | 'failed';

/** Payments that mean a customer paid (a refund or dispute does not make them a trial-only customer again). */
const PAID_STATUSES = ['succeeded', 'refunded', 'disputed'];
/** Rows written in one statement when the recipients are fixed (knex writes SQLite's as a compound SELECT: at most 500 terms). */
const INSERT_CHUNK = 400;

/** Broadcasts and their recipients. */
export function createTelegramBroadcastsRepo(db: Db) {
  async function counts(ids: string[]): Promise<Map<string, TelegramBroadcast['counts']>> {
    const rows: Array<{ broadcast_id: string; status: RecipientStatus; n: number | string }> = ids.length
      ? await db('telegram_broadcast_recipients')
          .whereIn('broadcast_id', ids)
          .select('broadcast_id', 'status')
          .count({ n: '*' })
          .groupBy('broadcast_id', 'status')
      : [];
    const byId = new Map(ids.map((id) => [id, { pending: 0, sent: 0, blocked: 0, failed: 0 }]));
    for (const row of rows) {
      const entry = byId.get(row.broadcast_id)!;
      const n = Number(row.n);
      if (row.status === 'pending') entry.pending += n;
      else if (row.status === 'sent') entry.sent += n;
      else if (row.status === 'blocked') entry.blocked += n;
      // `sending` is in flight, or was when a crash stopped it (never sent again): counted with the failures.
      else entry.failed += n;
    }
    return byId;
  }

  const toBroadcast = (row: Record<string, unknown>, count: TelegramBroadcast['counts']): TelegramBroadcast => ({
    id: String(row.id),
    text: String(row.text),
    audience: row.audience as BroadcastAudience,
    locale: isLocale(row.locale) ? row.locale : null,
    status: row.status as BroadcastStatus,
    total: Number(row.total),
    counts: count,
    createdAt: new Date(row.created_at as string).toISOString(),
    finishedAt: toDateOrNull(row.finished_at)?.toISOString() ?? null,
  });

  return {
    /** The chats in the audience that have not blocked the bot. */
    async candidates(audience: BroadcastAudience): Promise<BroadcastCandidate[]> {
      const q = db('telegram_chats as c').whereNull('c.blocked_at').select('c.telegram_id', 'c.locale', 'c.language_code').orderBy('c.telegram_id');
      const accounts = (sub: Knex.QueryBuilder) => sub.select(db.raw('1')).from('vpn_accounts as a').whereRaw('a.user_id = c.user_id');
      const activeAccount = (sub: Knex.QueryBuilder) => void accounts(sub).where('a.status', 'active');
      if (audience === 'active') q.whereNotNull('c.user_id').whereExists(activeAccount);
      if (audience === 'expired')
        q.whereNotNull('c.user_id')
          .whereExists((sub) => void accounts(sub))
          .whereNotExists(activeAccount);
      if (audience === 'trial')
        q.join('user_profiles as u', 'u.id', 'c.user_id')
          .where('u.trial_used', true)
          .whereNotExists(
            (sub) =>
              void sub
                .select(db.raw('1'))
                .from('transactions as t')
                .whereRaw('t.user_id = c.user_id')
                .whereIn('t.status', PAID_STATUSES)
                .where('t.amount', '>', 0),
          );
      const rows: Array<{ telegram_id: unknown; locale: string | null; language_code: string | null }> = await q;
      return rows.map((row) => ({ telegramId: Number(row.telegram_id), locale: row.locale, languageCode: row.language_code }));
    },

    /** The broadcast and its recipients, fixed now, written together with what `alsoWrite` writes (its first job). */
    async create(
      broadcast: { id: string; text: string; audience: BroadcastAudience; locale: Locale | null; createdBy: string | null; recipients: number[]; now: Date },
      alsoWrite: (trx: Db) => Promise<unknown>,
    ): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('telegram_broadcasts').insert({
          id: broadcast.id,
          text: broadcast.text,
          audience: broadcast.audience,
          locale: broadcast.locale,
          status: broadcast.recipients.length ? 'sending' : 'done',
          total: broadcast.recipients.length,
          created_by: broadcast.createdBy,
          created_at: broadcast.now,
          finished_at: broadcast.recipients.length ? null : broadcast.now,
        });
        for (let i = 0; i < broadcast.recipients.length; i += INSERT_CHUNK) {
          const chunk = broadcast.recipients.slice(i, i + INSERT_CHUNK);
          await trx('telegram_broadcast_recipients').insert(
            chunk.map((telegramId) => ({ broadcast_id: broadcast.id, telegram_id: telegramId, status: 'pending' })),
          );
        }
        await alsoWrite(trx);
      });
    },

    async find(id: string): Promise<TelegramBroadcast | undefined> {
      const row = await db('telegram_broadcasts').where({ id }).first();
      return row && toBroadcast(row, (await counts([id])).get(id)!);
    },

    async list(limit: number): Promise<TelegramBroadcast[]> {
      const rows = await db('telegram_broadcasts').orderBy('created_at', 'desc').orderBy('id').limit(limit);
      const byId = await counts(rows.map((row) => String(row.id)));
      return rows.map((row) => toBroadcast(row, byId.get(String(row.id))!));
    },

    /** The next recipients still to send to, in order. */
    async nextPending(id: string, limit: number): Promise<number[]> {
      const rows = await db('telegram_broadcast_recipients')
        .where({ broadcast_id: id, status: 'pending' })
        .orderBy('telegram_id')
        .limit(limit)
        .select('telegram_id');
      return rows.map((row) => Number(row.telegram_id));
    },

    /** Moves one recipient from `from` to `to`; false when it was not in `from` (someone else has it). */
    async mark(id: string, telegramId: number, from: RecipientStatus, to: RecipientStatus, now: Date): Promise<boolean> {
      return (
        (await db('telegram_broadcast_recipients').where({ broadcast_id: id, telegram_id: telegramId, status: from }).update({ status: to, updated_at: now })) >
        0
      );
    },

    /** Ends a broadcast (all sent, or cancelled: whoever is still pending is not sent to). */
    async finish(id: string, status: 'done' | 'cancelled', now: Date): Promise<boolean> {
      return (await db('telegram_broadcasts').where({ id, status: 'sending' }).update({ status, finished_at: now })) > 0;
    },

    async statusOf(id: string): Promise<BroadcastStatus | undefined> {
      return (await db('telegram_broadcasts').where({ id }).first('status'))?.status;
    },
  };
}

export type TelegramBroadcastsRepo = ReturnType<typeof createTelegramBroadcastsRepo>;
