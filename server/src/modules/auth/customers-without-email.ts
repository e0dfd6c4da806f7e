import type { Locale } from '../../../../shared/locales.js';
import { MESSAGES } from '../../../../shared/errors.js';
import { AppError } from '../../errors.js';
import type { UserProfile } from '../users/index.js';
import type { AuthServiceDeps, RequestMeta } from './auth-deps.js';
import { attributeReferral, requestCode, spendCode } from './sign-in-codes.js';

/**
 * Customers who came through the Telegram bot without an e-mail address (issue 54): made with no address, their
 * Telegram being how they sign in, and given one later when they prove it with a code, as a sign-in does.
 */

/** A new customer without an address, reading `locale`; a friend's invitation they came with is attributed to its referrer. */
export async function signUpWithoutEmail(
  deps: AuthServiceDeps,
  input: { locale: Locale | null; referralCode?: string; via: 'telegram_bot' | 'mini_app'; telegramId: number },
): Promise<UserProfile> {
  const now = deps.clock();
  const user = await deps.users.createWithoutEmail(input.locale, now);
  await deps.audit.record({ actorId: user.id, actorEmail: null, action: 'auth.sign_up', details: { via: input.via, telegramId: input.telegramId }, now });
  if (input.referralCode) await attributeReferral(deps, user, input.referralCode, null);
  return user;
}

const alreadyHasEmail = () => new AppError(409, 'has_email', 'This account has an e-mail address already.');

/** Sends a code to the address a customer without one wants to add (the sign-in's cooldown and tries hold). */
export async function requestEmailCode(deps: AuthServiceDeps, user: UserProfile, email: string, meta: RequestMeta, locale?: Locale): Promise<void> {
  if (user.email) throw alreadyHasEmail();
  await requestCode(deps, email, meta, locale ?? user.locale ?? undefined);
}

/**
 * The code proves the address: it becomes the customer's, their e-mails go to it from now on, and they can sign in
 * with it. 409 `email_taken` when another customer has it (they sign in with that one instead).
 */
export async function confirmEmail(deps: AuthServiceDeps, user: UserProfile, input: { email: string; code: string }, meta: RequestMeta): Promise<UserProfile> {
  if (user.email) throw alreadyHasEmail();
  const { now } = await spendCode(deps, input.email, input.code);
  const updated = await deps.users.setEmail(user.id, input.email, now);
  if (updated === 'taken') throw new AppError(409, 'email_taken', MESSAGES.emailTaken);
  if (!updated) throw alreadyHasEmail();
  await deps.audit.record({ actorId: user.id, actorEmail: input.email, action: 'user.email_added', ip: meta.ip, now });
  return updated;
}
