import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ClientKind, LogoutScope, VerifyOtpBody } from '../../../../shared/auth.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_COOLDOWN_SECONDS,
  OTP_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from '../../../../shared/constants.js';
import { MESSAGES, type CodeStatus } from '../../../../shared/errors.js';
import type { Config } from '../../config.js';
import { AppError, rateLimited } from '../../errors.js';
import { addSeconds, type Clock } from '../../lib/clock.js';
import { hmacHex, randomDigits, randomToken, safeEqualHex, sha256Hex, type Keys } from '../../lib/crypto.js';
import type { Mailer } from '../../mail/mailer.js';
import { renderOtpEmail } from '../../mail/otp-email.js';
import { DEFAULT_LOCALE, type Locale } from '../../../../shared/locales.js';
import type { AuditRepo } from '../audit/audit.repo.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserProfile, UsersRepo } from '../users/users.repo.js';
import type { OtpRepo } from './otp.repo.js';
import type { NewRefreshToken, SessionsRepo } from './sessions.repo.js';

/** A spent refresh token presented again within this window is a race between tabs, not theft. */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresAt: Date;
}

export interface AuthServiceDeps {
  config: Pick<Config, 'adminEmails' | 'publicUrl'>;
  keys: Keys;
  clock: Clock;
  mailer: Mailer;
  log: FastifyBaseLogger;
  otp: OtpRepo;
  sessions: SessionsRepo;
  users: UsersRepo;
  audit: AuditRepo;
  settings: SettingsService;
  signAccessToken(claims: { sub: string; sid: string }): string;
  /** The referral programme: a customer signing up with a referral code is attributed to its referrer. */
  referrals?: { attribute(referredId: string, code: string, ip: string | null): Promise<void> };
}

const invalidOtp = (codeStatus?: CodeStatus) => new AppError(400, 'invalid_code', MESSAGES.invalidOtp, codeStatus ? { codeStatus } : {});
const invalidRefreshToken = () =>
  new AppError(401, 'invalid_refresh_token', 'Your session has ended. Please sign in again.');

type NewRefresh = { raw: string; record: NewRefreshToken };

function newRefreshToken(now: Date): NewRefresh {
  const raw = randomToken(32);
  return { raw, record: { id: randomUUID(), tokenHash: sha256Hex(raw), expiresAt: addSeconds(now, REFRESH_TOKEN_TTL_SECONDS) } };
}

function tokensFor(sign: AuthServiceDeps['signAccessToken'], userId: string, sessionId: string, refresh: NewRefresh): IssuedTokens {
  return { accessToken: sign({ sub: userId, sid: sessionId }), refreshToken: refresh.raw, expiresIn: ACCESS_TOKEN_TTL_SECONDS, refreshExpiresAt: refresh.record.expiresAt };
}

export function createAuthService(deps: AuthServiceDeps) {
  const { clock, otp, sessions, users } = deps;
  const hashCode = (email: string, code: string) => hmacHex(deps.keys.otp, `${email}:${code}`);

  /** Seconds until the address may be sent another code (0: now). */
  async function resendInSeconds(email: string, now: Date): Promise<number> {
    const lastIssuedAt = await otp.findLastIssuedAt(email);
    if (!lastIssuedAt) return 0;
    return Math.max(0, Math.ceil(OTP_RESEND_COOLDOWN_SECONDS - (now.getTime() - lastIssuedAt.getTime()) / 1000));
  }

  /** 'Invalid code' (the spec's 'Invalid OTP', worded as the page words it), with why (wrong, locked by wrong tries, expired) and when a new code may be sent. */
  async function refused(email: string, now: Date): Promise<AppError> {
    const latest = await otp.findLatestUnused(email);
    const live = latest !== undefined && latest.expiresAt > now;
    const attemptsLeft = live ? Math.max(0, OTP_MAX_ATTEMPTS - latest.attempts) : 0;
    const reason = !live ? 'expired' : attemptsLeft === 0 ? 'locked' : 'wrong';
    return invalidOtp({ reason, attemptsLeft, resendInSeconds: await resendInSeconds(email, now) });
  }

  const issueTokens = (userId: string, sessionId: string, refresh: NewRefresh) => tokensFor(deps.signAccessToken, userId, sessionId, refresh);

  async function ensureAdminFromEnv(user: UserProfile, now: Date): Promise<UserProfile> {
    if (user.role === 'admin' || !deps.config.adminEmails.has(user.email)) return user;
    return (await users.update(user.id, { role: 'admin' }, now)) ?? user;
  }

  return {
    /** Sends a sign-in code in `locale` (the language of the page it was asked from): the same answer whether or not the address has an account. */
    async requestCode(email: string, meta: RequestMeta, locale: Locale = DEFAULT_LOCALE): Promise<void> {
      const now = clock();
      const waitSeconds = await resendInSeconds(email, now);
      if (waitSeconds > 0) throw rateLimited(waitSeconds, `Please wait ${waitSeconds} seconds before requesting a new code.`);

      const code = randomDigits(OTP_LENGTH);
      const id = randomUUID();
      await otp.insertCode({ id, email, codeHash: hashCode(email, code), expiresAt: addSeconds(now, OTP_TTL_SECONDS), createdAt: now, ip: meta.ip, locale });
      const { brandName } = await deps.settings.getAppSettings();
      try {
        await deps.mailer.send(renderOtpEmail({ to: email, code, brandName, publicUrl: deps.config.publicUrl, locale }));
      } catch (err) {
        deps.log.error({ err, to: email }, 'sending the sign-in code failed');
        await otp.deleteCode(id);
        throw new AppError(502, 'mail_failed', MESSAGES.otpSendFailed);
      }
      await otp.retireOtherCodes(email, id, now);
    },

    /** Checks the code; on success creates the profile if needed and starts a session. */
    async verifyCode(input: VerifyOtpBody, meta: RequestMeta): Promise<{ user: UserProfile; tokens: IssuedTokens }> {
      const now = clock();
      const active = await otp.findActiveCode(input.email, now);
      if (!active || !(await otp.claimAttempt(active.id))) throw await refused(input.email, now);
      if (!safeEqualHex(hashCode(input.email, input.code), active.codeHash)) throw await refused(input.email, now);
      if (!(await otp.consume(active.id, now))) throw await refused(input.email, now);

      const role = deps.config.adminEmails.has(input.email) ? 'admin' : 'user';
      // Only a sign-up is attributed to a referral (asked only when a code came: one read more for those).
      const signingUp = input.referralCode ? !(await users.findByEmail(input.email)) : false;
      let user = await ensureAdminFromEnv(await users.findOrCreateByEmail(input.email, role, now), now);
      // The language the code was asked in becomes the user's (their e-mails follow it).
      if (active.locale && user.locale !== active.locale) user = (await users.update(user.id, { locale: active.locale }, now)) ?? user;
      const tokens = await this.startSession(user, input.client, meta, now);
      await deps.audit.record({ actorId: user.id, actorEmail: user.email, action: 'auth.sign_in', details: { client: input.client }, ip: meta.ip, now });
      if (signingUp && input.referralCode && deps.referrals) {
        // A referral that cannot be written never costs the customer their sign-in.
        await deps.referrals.attribute(user.id, input.referralCode, meta.ip).catch((err: unknown) => {
          deps.log.error({ err, userId: user.id }, 'the referral of a new customer could not be written');
        });
      }
      return { user, tokens };
    },

    async startSession(user: UserProfile, client: ClientKind, meta: RequestMeta, now: Date): Promise<IssuedTokens> {
      const sessionId = randomUUID();
      const refresh = newRefreshToken(now);
      await sessions.createSession(
        { id: sessionId, userId: user.id, client, userAgent: meta.userAgent, ip: meta.ip, expiresAt: refresh.record.expiresAt, now },
        refresh.record,
      );
      return issueTokens(user.id, sessionId, refresh);
    },

    /** Swaps a refresh token for a new pair. */
    async refresh(rawToken: string | undefined): Promise<IssuedTokens> {
      return (await this.refreshWithUserId(rawToken)).tokens;
    },

    /**
     * Swaps a refresh token for a new pair. A token that was already swapped revokes the whole
     * session (someone replayed it), unless it comes back within a few seconds of its rotation:
     * that is two tabs refreshing at once, and the loser is simply told no.
     */
    async refreshWithUserId(rawToken: string | undefined): Promise<{ tokens: IssuedTokens; userId: string }> {
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
      return { tokens: issueTokens(record.userId, record.sessionId, next), userId: record.userId };
    },

    /**
     * For a browser whose access cookie has lapsed: renews the session from its refresh token and
     * returns the user with the new tokens. Undefined when the refresh token is no good.
     */
    async resumeSession(rawToken: string): Promise<{ user: UserProfile; tokens: IssuedTokens } | undefined> {
      let tokens: IssuedTokens;
      let userId: string;
      try {
        ({ tokens, userId } = await this.refreshWithUserId(rawToken));
      } catch {
        return undefined;
      }
      const user = await users.findById(userId);
      return user && { user, tokens };
    },

    /** Ends the current session (local), every session (global) or every other one (others). */
    async logout(scope: LogoutScope, current: { userId: string; sessionId: string } | undefined): Promise<void> {
      if (!current) return;
      const now = clock();
      if (scope === 'local') await sessions.revokeSession(current.sessionId, 'logout', now);
      else if (scope === 'global') await sessions.revokeUserSessions(current.userId, 'logout_global', now);
      else await sessions.revokeUserSessions(current.userId, 'logout_others', now, current.sessionId);
    },

    /** Which session a refresh token belongs to (for signing out with only the refresh token). */
    async findSessionByRefreshToken(rawToken: string): Promise<{ userId: string; sessionId: string } | undefined> {
      const record = await sessions.findRefreshToken(sha256Hex(rawToken));
      return record && !record.sessionRevokedAt ? { userId: record.userId, sessionId: record.sessionId } : undefined;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
