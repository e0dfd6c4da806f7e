import type { ClientKind, LogoutScope, VerifyOtpBody } from '../../../../shared/auth.js';
import type { Locale } from '../../../../shared/locales.js';
import type { UserProfile } from '../users/index.js';
import type { AuthServiceDeps, RequestMeta, SignInCodeCopy } from './auth-deps.js';
import { findSessionByRefreshToken, logout, refreshWithUserId, resumeSession, signIn, startSession } from './auth-sessions.js';
import { confirmEmail, requestEmailCode, signUpWithoutEmail } from './customers-without-email.js';
import { confirmCode, requestCode, verifyCode } from './sign-in-codes.js';

export { REFRESH_REUSE_GRACE_SECONDS } from './auth-sessions.js';
export type { AuthServiceDeps, IssuedTokens, RequestMeta, SignInCodeCopy } from './auth-deps.js';

/**
 * Signing in by e-mail code, and the sessions it starts. Each use case is a function of its own (sign-in-codes.ts,
 * auth-sessions.ts) taking the dependencies first; this binds them.
 */
export function createAuthService(given: AuthServiceDeps) {
  const codeCopies = [...(given.codeCopies ?? [])];
  const deps: AuthServiceDeps = { ...given, codeCopies };
  return {
    /** Sends a sign-in code in `locale` (the language of the page it was asked from): the same answer whether or not the address has an account. */
    requestCode: (email: string, meta: RequestMeta, locale?: Locale) => requestCode(deps, email, meta, locale),
    /** Checks the code; on success creates the profile if needed and starts a session. */
    verifyCode: (input: VerifyOtpBody, meta: RequestMeta) => verifyCode(deps, input, meta),
    /** Checks the code and answers the profile it proves (made if needed) without starting a session: a Telegram chat is linked with it. */
    confirmCode: (input: { email: string; code: string; referralCode?: string }) => confirmCode(deps, input),
    startSession: (user: UserProfile, client: ClientKind, meta: RequestMeta, now: Date) => startSession(deps, user, client, meta, now),
    /** Starts a session and records the sign-in (how, address, device) in the audit log. */
    signIn: (user: UserProfile, client: ClientKind, meta: RequestMeta, now: Date, how: Record<string, unknown>) => signIn(deps, user, client, meta, now, how),
    /** A new customer without an e-mail address (from the Telegram bot or its Mini App). */
    signUpWithoutEmail: (input: Parameters<typeof signUpWithoutEmail>[1]) => signUpWithoutEmail(deps, input),
    /** A customer without an address asks for a code to add one; the code then proves it. */
    requestEmailCode: (user: UserProfile, email: string, meta: RequestMeta, locale?: Locale) => requestEmailCode(deps, user, email, meta, locale),
    confirmEmail: (user: UserProfile, input: { email: string; code: string }, meta: RequestMeta) => confirmEmail(deps, user, input, meta),
    /** Swaps a refresh token for a new pair. */
    refresh: async (rawToken: string | undefined) => (await refreshWithUserId(deps, rawToken)).tokens,
    /** Swaps a refresh token for a new pair; a replayed one (outside a few seconds' grace) revokes the whole session. */
    refreshWithUserId: (rawToken: string | undefined) => refreshWithUserId(deps, rawToken),
    /** Renews a session from its refresh token for a browser whose access cookie has lapsed; undefined when the token is no good. */
    resumeSession: (rawToken: string) => resumeSession(deps, rawToken),
    /** Ends the current session (local), every session (global) or every other one (others). */
    logout: (scope: LogoutScope, current: { userId: string; sessionId: string } | undefined, meta?: RequestMeta) => logout(deps, scope, current, meta),
    /** Which session a refresh token belongs to (for signing out with only the refresh token). */
    findSessionByRefreshToken: (rawToken: string) => findSessionByRefreshToken(deps, rawToken),
    /** Every sign-in code also goes by `copy` once its e-mail is sent (the Telegram bot adds itself: auth cannot import it). */
    alsoSendCodesBy: (copy: SignInCodeCopy): void => {
      codeCopies.push(copy);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
