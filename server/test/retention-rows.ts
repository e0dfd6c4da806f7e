import { randomUUID } from 'node:crypto';
import type { Db } from '../src/db/knex.js';
import { addSeconds } from '../src/lib/clock.js';

/**
 * Test factories: one row of each table the purge deletes from, dated relative to `now` (in days; a
 * negative number is in the past). Each returns the row's id so a test checks its own rows only.
 */
export function createRetentionRows(db: Db, now: Date) {
  const day = (days: number) => addSeconds(now, days * 24 * 3600);
  const days = (value: number | null | undefined) => (value === null || value === undefined ? null : day(value));

  return {
    day,

    async user(): Promise<string> {
      const id = randomUUID();
      await db('user_profiles').insert({ id, email: `${id}@example.com`, role: 'user', trial_used: false, created_at: day(-400), updated_at: day(-400) });
      return id;
    },

    async otpCode(options: { expiresDaysAgo: number; consumedDaysAgo?: number }): Promise<string> {
      const id = randomUUID();
      const expiresAt = day(-options.expiresDaysAgo);
      await db('otp_codes').insert({
        id,
        email: `${id}@example.com`,
        code_hash: 'x'.repeat(64),
        attempts: 0,
        expires_at: expiresAt,
        consumed_at: days(options.consumedDaysAgo === undefined ? null : -options.consumedDaysAgo),
        ip: '127.0.0.1',
        created_at: addSeconds(expiresAt, -600),
      });
      return id;
    },

    /** `expiresIn` and `revokedIn` in days from now (negative: in the past). */
    async session(userId: string, options: { expiresIn: number; revokedIn?: number }): Promise<string> {
      const id = randomUUID();
      await db('sessions').insert({
        id,
        user_id: userId,
        client: 'web',
        user_agent: null,
        ip: '127.0.0.1',
        expires_at: day(options.expiresIn),
        revoked_at: days(options.revokedIn),
        revoked_reason: options.revokedIn === undefined ? null : 'logout',
        created_at: day(-400),
        last_used_at: day(-1),
      });
      return id;
    },

    async refreshToken(sessionId: string, options: { expiresIn: number; rotatedIn?: number }): Promise<string> {
      const id = randomUUID();
      await db('refresh_tokens').insert({
        id,
        session_id: sessionId,
        token_hash: randomUUID().replaceAll('-', '').padEnd(64, '0'),
        expires_at: day(options.expiresIn),
        rotated_at: days(options.rotatedIn),
        created_at: day(options.expiresIn - 30),
      });
      return id;
    },

    async webhookEvent(processedDaysAgo: number): Promise<string> {
      const id = `evt_${randomUUID()}`;
      await db('webhook_events').insert({ id, provider: 'stripe', type: 'invoice.paid', processed_at: day(-processedDaysAgo) });
      return id;
    },

    /** An update the Telegram bot claimed (its id, unique per bot). */
    async telegramUpdate(receivedDaysAgo: number): Promise<number> {
      const updateId = Math.floor(Math.random() * 1e9);
      await db('telegram_updates').insert({ bot_id: 7000001, update_id: updateId, received_at: day(-receivedDaysAgo) });
      return updateId;
    },

    /** A refund or dispute kept for a payment not confirmed (yet, or ever). */
    async keptReversal(createdDaysAgo: number): Promise<number> {
      const [row] = await db('kept_reversals')
        .insert({ payment_ref: `pi_${randomUUID()}`, kind: 'refunded', event: '{}', created_at: day(-createdDaysAgo) })
        .returning('id');
      return typeof row === 'object' ? (row as { id: number }).id : (row as number);
    },

    async job(options: {
      status: 'queued' | 'running' | 'done' | 'failed';
      updatedDaysAgo: number;
      dedupeKey?: string | null;
      type?: string;
    }): Promise<string> {
      const id = randomUUID();
      const updatedAt = day(-options.updatedDaysAgo);
      await db('jobs').insert({
        id,
        type: options.type ?? 'send_billing_email',
        payload: '{}',
        status: options.status,
        attempts: 1,
        max_attempts: 20,
        run_at: updatedAt,
        locked_at: options.status === 'running' ? updatedAt : null,
        locked_by: options.status === 'running' ? 'worker' : null,
        last_error: null,
        dedupe_key: options.dedupeKey === undefined ? `test:${id}` : options.dedupeKey,
        created_at: updatedAt,
        updated_at: updatedAt,
      });
      return id;
    },

    async accountLog(createdDaysAgo: number): Promise<number> {
      const [row] = await db('vpn_account_logs')
        .insert({ vpn_account_id: null, user_id: null, step: 'provision', status: 'ok', details: '{}', created_at: day(-createdDaysAgo) })
        .returning('id');
      return Number(typeof row === 'object' ? row.id : row);
    },

    async auditEntry(createdDaysAgo: number): Promise<number> {
      const [row] = await db('audit_log')
        .insert({ actor_id: null, actor_email: null, action: 'test.entry', details: '{}', ip: null, created_at: day(-createdDaysAgo) })
        .returning('id');
      return Number(typeof row === 'object' ? row.id : row);
    },

    /** The ids of `ids` still in `table`. */
    async remaining<T extends string | number>(table: string, ids: T[]): Promise<T[]> {
      const rows: Array<{ id: string | number }> = await db(table).select('id').whereIn('id', ids);
      const left = new Set(rows.map((row) => String(row.id)));
      return ids.filter((id) => left.has(String(id)));
    },
  };
}

export type RetentionRows = ReturnType<typeof createRetentionRows>;
