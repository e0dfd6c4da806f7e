import { LOCALES, type Locale } from '../../../../shared/locales.js';
import type { Db } from '../../db/knex.js';
import { toDate } from '../../db/values.js';
import { OTP_MAX_ATTEMPTS } from '../../../../shared/constants.js';

export interface OtpCode {
  id: string;
  email: string;
  codeHash: string;
  attempts: number;
  expiresAt: Date;
  createdAt: Date;
  /** The language of the page the code was asked from (the user's language once signed in). */
  locale: Locale | null;
}

interface OtpRow {
  id: string;
  email: string;
  code_hash: string;
  attempts: number;
  expires_at: unknown;
  created_at: unknown;
  locale?: string | null;
}

const toOtpCode = (row: OtpRow): OtpCode => ({
  id: row.id,
  email: row.email,
  codeHash: row.code_hash,
  attempts: row.attempts,
  expiresAt: toDate(row.expires_at),
  createdAt: toDate(row.created_at),
  locale: (LOCALES as readonly string[]).includes(row.locale ?? '') ? (row.locale as Locale) : null,
});

export function createOtpRepo(db: Db) {
  return {
    /** When the address was last sent a code (for the resend cool-down). */
    async findLastIssuedAt(email: string): Promise<Date | undefined> {
      const row = await db('otp_codes').select('created_at').where({ email }).orderBy('created_at', 'desc').first();
      return row ? toDate(row.created_at) : undefined;
    },

    async insertCode(code: Omit<OtpCode, 'attempts'> & { ip: string | null }): Promise<void> {
      await db('otp_codes').insert({
        id: code.id,
        email: code.email,
        code_hash: code.codeHash,
        attempts: 0,
        expires_at: code.expiresAt,
        ip: code.ip,
        locale: code.locale,
        created_at: code.createdAt,
      });
    },

    /** Retires every other unused code of the address: only the newest one sent works. */
    async retireOtherCodes(email: string, keepId: string, now: Date): Promise<void> {
      await db('otp_codes').where({ email }).whereNot({ id: keepId }).whereNull('consumed_at').update({ consumed_at: now });
    },

    async deleteCode(id: string): Promise<void> {
      await db('otp_codes').where({ id }).delete();
    },

    /** The newest code that is unused, unexpired and not burned by wrong guesses. */
    async findActiveCode(email: string, now: Date): Promise<OtpCode | undefined> {
      const row = await db('otp_codes')
        .select('id', 'email', 'code_hash', 'attempts', 'expires_at', 'created_at', 'locale')
        .where({ email })
        .whereNull('consumed_at')
        .where('expires_at', '>', now)
        .where('attempts', '<', OTP_MAX_ATTEMPTS)
        .orderBy('created_at', 'desc')
        .first();
      return row && toOtpCode(row);
    },

    /** The newest code sent to the address and not used, whatever its state (to tell why a code was refused). */
    async findLatestUnused(email: string): Promise<OtpCode | undefined> {
      const row = await db('otp_codes')
        .select('id', 'email', 'code_hash', 'attempts', 'expires_at', 'created_at')
        .where({ email })
        .whereNull('consumed_at')
        .orderBy('created_at', 'desc')
        .first();
      return row && toOtpCode(row);
    },

    /** Marks the code used. False when another request used it first. */
    async consume(id: string, now: Date): Promise<boolean> {
      const updated = await db('otp_codes').where({ id }).whereNull('consumed_at').update({ consumed_at: now });
      return updated === 1;
    },

    /**
     * Spends one of the code's attempts before its hash is compared: the counter moves in one
     * conditional update, so parallel guesses can never take more than OTP_MAX_ATTEMPTS between them.
     * False when the code is used, or its attempts are spent.
     */
    async claimAttempt(id: string): Promise<boolean> {
      const updated = await db('otp_codes').where({ id }).whereNull('consumed_at').where('attempts', '<', OTP_MAX_ATTEMPTS).increment('attempts', 1);
      return updated === 1;
    },
  };
}

export type OtpRepo = ReturnType<typeof createOtpRepo>;
