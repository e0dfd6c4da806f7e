import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import type { Keys } from '../../lib/crypto.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AuditRepo } from '../audit/index.js';
import type { Metrics } from '../metrics/index.js';
import type { SettingsService } from '../settings/index.js';
import type { UsersRepo } from '../users/index.js';
import type { OtpRepo } from './otp.repo.js';
import type { SessionsRepo } from './sessions.repo.js';

/** What signing in works with (sign-in-codes.ts, auth-sessions.ts), and what it answers with. */

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

/**
 * Another way a sign-in code reaches the customer of its address, beside the e-mail (their Telegram, when they asked
 * for it there). It decides for itself whether the address has such a customer; its failures are only logged.
 */
export type SignInCodeCopy = (sent: { email: string; code: string }) => Promise<void>;

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
  /** Where each code also goes once its e-mail is sent (a module built later adds one: `alsoSendCodesBy`). */
  codeCopies?: SignInCodeCopy[];
  /** Codes sent and refused are counted here (GET /metrics). */
  metrics?: Pick<Metrics, 'codeSent' | 'codeRefused'>;
}
