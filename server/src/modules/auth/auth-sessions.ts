import { randomUUID } from 'node:crypto';
import type { ClientKind, LogoutScope } from '../../../../shared/auth.js';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '../../../../shared/constants.js';
import { AppError } from '../../errors.js';
import { addSeconds } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import type { UserProfile } from '../users/index.js';
import type { AuthServiceDeps, IssuedTokens, RequestMeta } from './auth-deps.js';
import type { NewRefreshToken } from './sessions.repo.js';

/** Sessions: started at sign-in, kept going by rotating refresh tokens (a replayed one ends the session), and ended. */

/** A spent refresh token presented again within this window is a race between tabs, not theft. */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

const invalidRefreshToken = () => new AppError(401, 'invalid_refresh_token', 'Your session has ended. Please sign in again.');

type NewRefresh = { raw: string; record: NewRefreshToken };

function newRefreshToken(now: Date): NewRefresh {
  const raw = randomToken(32);
  return { raw, record: { id: randomUUID(), tokenHash: sha256Hex(raw), expiresAt: addSeconds(now, REFRESH_TOKEN_TTL_SECONDS) } };
}

function tokensFor(sign: AuthServiceDeps['signAccessToken'], userId: string, sessionId: string, refresh: NewRefresh): IssuedTokens {
  return {
    accessToken: sign({ sub: userId, sid: sessionId }),
    refreshToken: refresh.raw,
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    refreshExpiresAt: refresh.record.expiresAt,
  };
}

/** What the audit log keeps of the device a request came from: its user agent (the desktop app names itself there). */
export const deviceOf = (meta: RequestMeta | undefined): string | null => meta?.userAgent?.slice(0, 200) ?? null;

export async function startSession(deps: AuthServiceDeps, user: UserProfile, client: ClientKind, meta: RequestMeta, now: Date): Promise<IssuedTokens> {
  const sessionId = randomUUID();
  const refresh = newRefreshToken(now);
  await deps.sessions.createSession(
    { id: sessionId, userId: user.id, client, userAgent: meta.userAgent, ip: meta.ip, expiresAt: refresh.record.expiresAt, now },
    refresh.record,
  );
  return tokensFor(deps.signAccessToken, user.id, sessionId, refresh);
}

/**
 * Starts a session and records the sign-in on the customer's security trail: how (`how`, e.g. `{ by: 'email_code' }`),
 * from which address and device. Every way in (the code, the Mini App, the bot's pay link) signs in through here.
 */
export async function signIn(
  deps: AuthServiceDeps,
  user: UserProfile,
  client: ClientKind,
  meta: RequestMeta,
  now: Date,
  how: Record<string, unknown>,
): Promise<IssuedTokens> {
  const tokens = await startSession(deps, user, client, meta, now);
  await deps.audit.record({
    actorId: user.id,
    actorEmail: user.email,
    action: 'auth.sign_in',
    targetType: 'user',
    targetId: user.id,
    details: { client, ...how, device: deviceOf(meta) },
    ip: meta.ip,
    now,
  });
  return tokens;
}

/**
 * Swaps a refresh token for a new pair. A token that was already swapped revokes the whole
 * session (someone replayed it), unless it comes back within a few seconds of its rotation:
 * that is two tabs refreshing at once, and the loser is simply told no.
 */
export async function refreshWithUserId(deps: AuthServiceDeps, rawToken: string | undefined): Promise<{ tokens: IssuedTokens; userId: string }> {
  const { clock, sessions } = deps;
  if (!rawToken) throw invalidRefreshToken();
  const now = clock();
  const record = await sessions.findRefreshToken(sha256Hex(rawToken));
  if (!record || record.sessionRevokedAt || record.sessionExpiresAt <= now || record.expiresAt <= now) {
    throw invalidRefreshToken();
  }
  if (record.rotatedAt) {
    const secondsSinceRotation = (now.getTime() - record.rotatedAt.getTime()) / 1000;
    if (secondsSinceRotation > REFRESH_REUSE_GRACE_SECONDS) {
      await sessions.revokeSession(record.sessionId, 'token_reuse', now);
      deps.log.warn({ sessionId: record.sessionId, userId: record.userId }, 'refresh token reused: session revoked');
    }
    throw invalidRefreshToken();
  }
  const next = newRefreshToken(now);
  if (!(await sessions.rotateRefreshToken(record.id, record.sessionId, next.record, now))) throw invalidRefreshToken();
  return { tokens: tokensFor(deps.signAccessToken, record.userId, record.sessionId, next), userId: record.userId };
}

/**
 * For a browser whose access cookie has lapsed: renews the session from its refresh token and
 * returns the user with the new tokens. Undefined when the refresh token is no good.
 */
export async function resumeSession(deps: AuthServiceDeps, rawToken: string): Promise<{ user: UserProfile; tokens: IssuedTokens } | undefined> {
  let tokens: IssuedTokens;
  let userId: string;
  try {
    ({ tokens, userId } = await refreshWithUserId(deps, rawToken));
  } catch {
    return undefined;
  }
  const user = await deps.users.findById(userId);
  return user && { user, tokens };
}

/** Ends the current session (local), every session (global) or every other one (others). */
export async function logout(
  deps: AuthServiceDeps,
  scope: LogoutScope,
  current: { userId: string; sessionId: string } | undefined,
  meta?: RequestMeta,
): Promise<void> {
  const { clock, sessions } = deps;
  if (!current) return;
  const now = clock();
  if (scope === 'local') return void (await sessions.revokeSession(current.sessionId, 'logout', now));
  const revoked =
    scope === 'global'
      ? await sessions.revokeUserSessions(current.userId, 'logout_global', now)
      : await sessions.revokeUserSessions(current.userId, 'logout_others', now, current.sessionId);
  // Signing out every device (or every other one) is a security event: on the customer's page.
  await deps.audit.record({
    actorId: current.userId,
    actorEmail: null,
    action: scope === 'global' ? 'auth.sign_out_all' : 'auth.sign_out_others',
    targetType: 'user',
    targetId: current.userId,
    details: { revoked, device: deviceOf(meta) },
    ip: meta?.ip ?? null,
    now,
  });
}

/** Which session a refresh token belongs to (for signing out with only the refresh token). */
export async function findSessionByRefreshToken(deps: AuthServiceDeps, rawToken: string): Promise<{ userId: string; sessionId: string } | undefined> {
  const record = await deps.sessions.findRefreshToken(sha256Hex(rawToken));
  return record && !record.sessionRevokedAt ? { userId: record.userId, sessionId: record.sessionId } : undefined;
}
