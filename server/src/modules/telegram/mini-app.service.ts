import type { TelegramLinkedResponse } from '../../../../shared/telegram-auth.js';
import { AppError, unauthenticated, validationFailed } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepo } from '../audit/index.js';
import type { authModule, RequestMeta } from '../auth/index.js';
import type { Provided } from '../module.js';
import type { UserProfile, UsersRepo } from '../users/index.js';
import { checkInitData, INIT_DATA_PROBLEMS } from './init-data.js';
import { pendingReferral } from './bot-start.js';
import type { TelegramChat, TelegramChatsRepo, TelegramPerson } from './telegram-chats.repo.js';
import type { TelegramSettingsService } from './telegram-settings.service.js';

type AuthService = Provided<typeof authModule>['auth'];
type IssuedTokens = Awaited<ReturnType<AuthService['signIn']>>;

export interface MiniAppDeps {
  telegram: Pick<TelegramSettingsService, 'liveBot'>;
  chats: Pick<TelegramChatsRepo, 'find' | 'seen' | 'link'>;
  auth: Pick<AuthService, 'signIn' | 'signUpWithoutEmail'>;
  users: Pick<UsersRepo, 'findById'>;
  audit: AuditRepo;
  clock: Clock;
}

const HOLDS_CUSTOMER =
  'This Telegram is how another account without an e-mail address signs in, so it cannot be linked here. Add an e-mail address to that account first.';

const botOff = () => unauthenticated('Signing in with Telegram is not available: the store’s Telegram bot is switched off.');

export const notLinked = () =>
  new AppError(403, 'telegram_not_linked', 'This Telegram account is not linked to a customer yet: sign in with your e-mail to link it.');

/** How refused launch data is answered: signing in, 401; linking while signed in, 400 (a 401 would read as a lost session). */
const SIGN_IN_REFUSALS = { botOff, refused: (message: string) => unauthenticated(message) };
const LINK_REFUSALS = {
  botOff: () => new AppError(503, 'service_unavailable', 'The store’s Telegram bot is switched off.'),
  refused: (message: string) => validationFailed({ initData: message }, message),
};

/** The Telegram user the launch data names, once it is checked against the live bot's token at `now`. */
async function verifiedPerson(deps: MiniAppDeps, initData: string, now: Date, refusals: typeof SIGN_IN_REFUSALS): Promise<TelegramPerson> {
  const live = await deps.telegram.liveBot();
  if (!live) throw refusals.botOff();
  const check = checkInitData(initData, live.token, now);
  if (!check.ok) throw refusals.refused(INIT_DATA_PROBLEMS[check.problem]);
  return check.person;
}

/**
 * Signs in the customer the Mini App's Telegram user is linked to, as an e-mail code does on the web (a web
 * session, audited as a sign-in from Telegram); 403 `telegram_not_linked` when they are linked to no one.
 */
export async function signInWithTelegram(
  deps: MiniAppDeps,
  initData: string,
  meta: RequestMeta,
  signUp = false,
): Promise<{ user: UserProfile; tokens: IssuedTokens }> {
  const now = deps.clock();
  const person = await verifiedPerson(deps, initData, now, SIGN_IN_REFUSALS);
  const chat = await deps.chats.find(person.id);
  let user = chat?.userId ? await deps.users.findById(chat.userId) : undefined;
  if (!user && signUp) user = await signUpWithoutEmail(deps, person, chat, now);
  if (!user) throw notLinked();
  const tokens = await deps.auth.signIn(user, 'web', meta, now, { client: 'telegram', by: 'telegram', telegramId: person.id });
  return { user, tokens };
}

/** A new customer without an e-mail, linked to this Telegram user; refused to one who was linked before (they link that account again). */
async function signUpWithoutEmail(deps: MiniAppDeps, person: TelegramPerson, chat: TelegramChat | undefined, now: Date): Promise<UserProfile> {
  if (chat?.everLinked)
    throw new AppError(403, 'telegram_not_linked', 'This Telegram was linked to an account before: sign in with that account’s e-mail to link it again.');
  if (!chat) await deps.chats.seen(person, now);
  const locale = chat?.locale ?? null;
  const user = await deps.auth.signUpWithoutEmail({ locale, referralCode: pendingReferral(chat?.startPayload), via: 'mini_app', telegramId: person.id });
  if ((await deps.chats.link(person.id, user.id, now)) !== 'linked') throw notLinked();
  return user;
}

/**
 * Links the Mini App's Telegram user to the signed-in customer (their chat row made first if they never wrote to the
 * bot): the customer's Telegram before, if another, is unlinked, and a Telegram user linked to someone else moves
 * to this customer (the launch data proves the one, the session the other).
 */
export async function linkTelegram(deps: MiniAppDeps, user: UserProfile, initData: string, ip: string | null): Promise<TelegramLinkedResponse> {
  const now = deps.clock();
  const person = await verifiedPerson(deps, initData, now, LINK_REFUSALS);
  if (!(await deps.chats.find(person.id))) await deps.chats.seen(person, now);
  if ((await deps.chats.link(person.id, user.id, now)) === 'holds_customer') throw new AppError(409, 'email_required', HOLDS_CUSTOMER);
  await deps.audit.record({ actorId: user.id, actorEmail: user.email, action: 'telegram.linked', details: { telegramId: person.id, by: 'mini_app' }, ip, now });
  return { linked: true, telegram: { id: person.id, username: person.username ?? null, firstName: person.first_name } };
}

/** The Mini App's sign-in and linking, bound to their dependencies. */
export function createMiniApp(deps: MiniAppDeps) {
  return {
    signIn: (initData: string, meta: RequestMeta, signUp?: boolean) => signInWithTelegram(deps, initData, meta, signUp),
    link: (user: UserProfile, initData: string, ip: string | null) => linkTelegram(deps, user, initData, ip),
  };
}

export type MiniApp = ReturnType<typeof createMiniApp>;
