import type { ClientKind } from '../../../../shared/auth.js';
import type { Db } from '../../db/knex.js';
import { toDate, toDateOrNull } from '../../db/values.js';
import { USER_COLUMNS, toUserProfile, type UserProfile } from '../users/index.js';

export type RevokeReason = 'logout' | 'logout_global' | 'logout_others' | 'token_reuse' | 'admin';

export interface SessionWithUser {
  sessionId: string;
  expiresAt: Date;
  revokedAt: Date | null;
  user: UserProfile;
}

export interface RefreshTokenRecord {
  id: string;
  sessionId: string;
  userId: string;
  expiresAt: Date;
  rotatedAt: Date | null;
  sessionRevokedAt: Date | null;
  sessionExpiresAt: Date;
}

export interface NewRefreshToken {
  id: string;
  tokenHash: string;
  expiresAt: Date;
}

const refreshTokenRow = (sessionId: string, token: NewRefreshToken, now: Date) => ({
  id: token.id,
  session_id: sessionId,
  token_hash: token.tokenHash,
  expires_at: token.expiresAt,
  created_at: now,
});

export function createSessionsRepo(db: Db) {
  return {
    /** A new session and its first refresh token, together or not at all. */
    async createSession(
      session: { id: string; userId: string; client: ClientKind; userAgent: string | null; ip: string | null; expiresAt: Date; now: Date },
      firstToken: NewRefreshToken,
    ): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('sessions').insert({
          id: session.id,
          user_id: session.userId,
          client: session.client,
          user_agent: session.userAgent?.slice(0, 500) ?? null,
          ip: session.ip,
          expires_at: session.expiresAt,
          created_at: session.now,
          last_used_at: session.now,
        });
        await trx('refresh_tokens').insert(refreshTokenRow(session.id, firstToken, session.now));
      });
    },

    /** The session and its user in one query: every authenticated request reads this. */
    async findSessionWithUser(sessionId: string): Promise<SessionWithUser | undefined> {
      const row = await db('sessions as s')
        .join('user_profiles as u', 'u.id', 's.user_id')
        .select(
          's.id as session_id',
          's.expires_at as session_expires_at',
          's.revoked_at as session_revoked_at',
          ...USER_COLUMNS.map((column) => `u.${column}`),
        )
        .where('s.id', sessionId)
        .first();
      if (!row) return undefined;
      return {
        sessionId: row.session_id,
        expiresAt: toDate(row.session_expires_at),
        revokedAt: toDateOrNull(row.session_revoked_at),
        user: toUserProfile(row),
      };
    },

    async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
      const row = await db('refresh_tokens as t')
        .join('sessions as s', 's.id', 't.session_id')
        .select('t.id', 't.session_id', 's.user_id', 't.expires_at', 't.rotated_at', 's.revoked_at', 's.expires_at as session_expires_at')
        .where('t.token_hash', tokenHash)
        .first();
      if (!row) return undefined;
      return {
        id: row.id,
        sessionId: row.session_id,
        userId: row.user_id,
        expiresAt: toDate(row.expires_at),
        rotatedAt: toDateOrNull(row.rotated_at),
        sessionRevokedAt: toDateOrNull(row.revoked_at),
        sessionExpiresAt: toDate(row.session_expires_at),
      };
    },

    /**
     * Spends `oldTokenId` and stores its successor, sliding the session's expiry. False (and nothing
     * written) when the old token was already spent: a concurrent or replayed use.
     */
    async rotateRefreshToken(oldTokenId: string, sessionId: string, next: NewRefreshToken, now: Date): Promise<boolean> {
      return db.transaction(async (trx) => {
        const spent = await trx('refresh_tokens').where({ id: oldTokenId }).whereNull('rotated_at').update({ rotated_at: now });
        if (spent !== 1) return false;
        await trx('refresh_tokens').insert(refreshTokenRow(sessionId, next, now));
        await trx('sessions').where({ id: sessionId }).update({ last_used_at: now, expires_at: next.expiresAt });
        return true;
      });
    },

    async revokeSession(sessionId: string, reason: RevokeReason, now: Date): Promise<void> {
      await db('sessions').where({ id: sessionId }).whereNull('revoked_at').update({ revoked_at: now, revoked_reason: reason });
    },

    /** Revokes every live session of the user, except `keepSessionId` when given. Returns how many. */
    async revokeUserSessions(userId: string, reason: RevokeReason, now: Date, keepSessionId?: string): Promise<number> {
      const query = db('sessions').where({ user_id: userId }).whereNull('revoked_at');
      if (keepSessionId) query.whereNot({ id: keepSessionId });
      return query.update({ revoked_at: now, revoked_reason: reason });
    },
  };
}

export type SessionsRepo = ReturnType<typeof createSessionsRepo>;
