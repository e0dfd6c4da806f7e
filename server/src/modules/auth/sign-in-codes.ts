import { randomUUID } from 'node:crypto';
import type { VerifyOtpBody } from '../../../../shared/auth.js';
import { OTP_LENGTH, OTP_MAX_ATTEMPTS, OTP_RESEND_COOLDOWN_SECONDS, OTP_TTL_SECONDS } from '../../../../shared/constants.js';
import { MESSAGES, type CodeStatus } from '../../../../shared/errors.js';
import { DEFAULT_LOCALE, type Locale } from '../../../../shared/locales.js';
import { AppError, rateLimited } from '../../errors.js';
import { addSeconds } from '../../lib/clock.js';
import { hmacHex, randomDigits, safeEqualHex } from '../../lib/crypto.js';
import { renderOtpEmail } from '../../mail/otp-email.js';
import type { UserProfile } from '../users/index.js';
import type { AuthServiceDeps, IssuedTokens, RequestMeta } from './auth-deps.js';
import { deviceOf, signIn } from './auth-sessions.js';

/** Signing in by e-mail code: the code sent (no more often than the cooldown allows), then checked to start a session. */

const invalidOtp = (codeStatus?: CodeStatus) => new AppError(400, 'invalid_code', MESSAGES.invalidOtp, codeStatus ? { codeStatus } : {});

const hashCode = (deps: AuthServiceDeps, email: string, code: string) => hmacHex(deps.keys.otp, `${email}:${code}`);

/** Seconds until the address may be sent another code (0: now). */
async function resendInSeconds(deps: AuthServiceDeps, email: string, now: Date): Promise<number> {
  const lastIssuedAt = await deps.otp.findLastIssuedAt(email);
  if (!lastIssuedAt) return 0;
  return Math.max(0, Math.ceil(OTP_RESEND_COOLDOWN_SECONDS - (now.getTime() - lastIssuedAt.getTime()) / 1000));
}

/** 'Invalid code' (the spec's 'Invalid OTP', worded as the page words it), with why (wrong, locked by wrong tries, expired) and when a new code may be sent. */
async function refused(deps: AuthServiceDeps, email: string, now: Date): Promise<AppError> {
  const latest = await deps.otp.findLatestUnused(email);
  const live = latest !== undefined && latest.expiresAt > now;
  const attemptsLeft = live ? Math.max(0, OTP_MAX_ATTEMPTS - latest.attempts) : 0;
  const reason = !live ? 'expired' : attemptsLeft === 0 ? 'locked' : 'wrong';
  deps.metrics?.codeRefused(reason);
  return invalidOtp({ reason, attemptsLeft, resendInSeconds: await resendInSeconds(deps, email, now) });
}

/** The wrong try that used a code's last attempt locked it: on its customer's page (someone may be guessing). */
async function auditCodeLocked(deps: AuthServiceDeps, email: string, meta: RequestMeta | undefined, now: Date): Promise<void> {
  const user = await deps.users.findByEmail(email);
  await deps.audit.record({
    actorId: null,
    actorEmail: email,
    action: 'auth.code_locked',
    targetType: 'user',
    targetId: user?.id,
    userId: user?.id ?? null,
    details: { attempts: OTP_MAX_ATTEMPTS, device: deviceOf(meta) },
    ip: meta?.ip ?? null,
    now,
  });
}

/** `ADMIN_EMAILS` names the store's owners: the operator's own word, so it holds even after a role was changed in the app. */
async function ensureOwnerFromEnv(deps: AuthServiceDeps, user: UserProfile, now: Date): Promise<UserProfile> {
  if (user.role === 'owner' || !user.email || !deps.config.adminEmails.has(user.email)) return user;
  const changed = await deps.users.setRole(user.id, 'owner', now);
  return changed && changed !== 'last_owner' ? changed.user : user;
}

/** Sends a sign-in code in `locale` (the language of the page it was asked from): the same answer whether or not the address has an account. */
export async function requestCode(deps: AuthServiceDeps, email: string, meta: RequestMeta, locale: Locale = DEFAULT_LOCALE): Promise<void> {
  const { clock, otp } = deps;
  const now = clock();
  const waitSeconds = await resendInSeconds(deps, email, now);
  if (waitSeconds > 0) {
    deps.metrics?.codeRefused('throttled');
    throw rateLimited(waitSeconds, `Please wait ${waitSeconds} seconds before requesting a new code.`);
  }

  const code = randomDigits(OTP_LENGTH);
  const id = randomUUID();
  await otp.insertCode({ id, email, codeHash: hashCode(deps, email, code), expiresAt: addSeconds(now, OTP_TTL_SECONDS), createdAt: now, ip: meta.ip, locale });
  const { brandName } = await deps.settings.getAppSettings();
  try {
    await deps.mailer.send(renderOtpEmail({ to: email, code, brandName, publicUrl: deps.config.publicUrl, locale }));
  } catch (err) {
    deps.log.error({ err, to: email }, 'sending the sign-in code failed');
    await otp.deleteCode(id);
    throw new AppError(502, 'mail_failed', MESSAGES.otpSendFailed);
  }
  await otp.retireOtherCodes(email, id, now);
  deps.metrics?.codeSent();
  sendCopies(deps, email, code);
}

/**
 * The code also goes wherever its customer asked for it (their Telegram), in the background: the answer is the same
 * whether or not the address has a customer, and a failure there never fails the request.
 */
function sendCopies(deps: AuthServiceDeps, email: string, code: string): void {
  for (const copy of deps.codeCopies ?? []) {
    void Promise.resolve()
      .then(() => copy({ email, code }))
      .catch((err: unknown) => deps.log.error({ err }, 'sending a sign-in code beside its e-mail failed'));
  }
}

/** Checks the code and answers the profile it proves (made if needed; its language the one the code was asked in). */
async function proveCode(
  deps: AuthServiceDeps,
  input: { email: string; code: string; referralCode?: string; askSignUp?: boolean },
  meta?: RequestMeta,
): Promise<{ user: UserProfile; signingUp: boolean }> {
  const { users } = deps;
  const { now, active } = await spendCode(deps, input.email, input.code, meta);

  const role = deps.config.adminEmails.has(input.email) ? 'owner' : 'user';
  // Only a sign-up is attributed to a referral (asked only when a code came, or the caller wants to know: one read more).
  const signingUp = input.referralCode || input.askSignUp ? !(await users.findByEmail(input.email)) : false;
  let user = await ensureOwnerFromEnv(deps, await users.findOrCreateByEmail(input.email, role, now), now);
  // The language the code was asked in becomes the user's (their e-mails follow it).
  if (active.locale && user.locale !== active.locale) user = (await users.update(user.id, { locale: active.locale }, now)) ?? user;
  return { user, signingUp };
}

/**
 * Checks a code sent to `email` and spends it (one try taken, whatever the outcome); refused as the sign-in refuses
 * (wrong, locked, expired). Proves the address belongs to whoever typed the code.
 */
export async function spendCode(deps: AuthServiceDeps, email: string, code: string, meta?: RequestMeta) {
  const { clock, otp } = deps;
  const now = clock();
  const active = await otp.findActiveCode(email, now);
  if (!active || !(await otp.claimAttempt(active.id))) throw await refused(deps, email, now);
  if (!safeEqualHex(hashCode(deps, email, code), active.codeHash)) {
    if (active.attempts + 1 >= OTP_MAX_ATTEMPTS) await auditCodeLocked(deps, email, meta, now);
    throw await refused(deps, email, now);
  }
  if (!(await otp.consume(active.id, now))) throw await refused(deps, email, now);
  return { now, active };
}

/** A sign-up with a referral code is attributed to its referrer; a referral that cannot be written never costs the customer their sign-in. */
export async function attributeReferral(deps: AuthServiceDeps, user: UserProfile, referralCode: string, ip: string | null): Promise<void> {
  await deps.referrals?.attribute(user.id, referralCode, ip).catch((err: unknown) => {
    deps.log.error({ err, userId: user.id }, 'the referral of a new customer could not be written');
  });
}

/**
 * Checks the code and answers the profile it proves, made if needed, without a session: a Telegram chat is linked with
 * it. A sign-up with a referral code (the bot was opened with a friend's invitation) is attributed to its referrer.
 */
export async function confirmCode(
  deps: AuthServiceDeps,
  input: { email: string; code: string; referralCode?: string },
): Promise<{ user: UserProfile; signedUp: boolean }> {
  const { user, signingUp } = await proveCode(deps, { ...input, askSignUp: true });
  if (signingUp && input.referralCode) await attributeReferral(deps, user, input.referralCode, null);
  return { user, signedUp: signingUp };
}

/** Checks the code; on success creates the profile if needed and starts a session (a sign-up's referral attributed after it). */
export async function verifyCode(deps: AuthServiceDeps, input: VerifyOtpBody, meta: RequestMeta): Promise<{ user: UserProfile; tokens: IssuedTokens }> {
  const { user, signingUp } = await proveCode(deps, input, meta);
  const now = deps.clock();
  const tokens = await signIn(deps, user, input.client, meta, now, { by: 'email_code' });
  if (signingUp && input.referralCode) await attributeReferral(deps, user, input.referralCode, meta.ip);
  return { user, tokens };
}
