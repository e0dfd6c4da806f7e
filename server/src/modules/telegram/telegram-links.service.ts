import type { TelegramLinkStatus, TelegramLinkUrl } from '../../../../shared/telegram.js';
import { AppError } from '../../errors.js';
import { addSeconds, type Clock } from '../../lib/clock.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import type { AuditRepo } from '../audit/index.js';
import type { UserProfile } from '../users/index.js';
import type { TelegramChatsRepo } from './telegram-chats.repo.js';
import type { TelegramLinksRepo } from './telegram-links.repo.js';
import type { TelegramSettingsService } from './telegram-settings.service.js';

/** How long a link from the dashboard stays good: long enough to open Telegram, short enough not to be kept. */
export const LINK_TTL_SECONDS = 15 * 60;
/** The `/start` payload a link carries: Telegram passes up to 64 characters of `A-Za-z0-9_-`. */
export const LINK_PAYLOAD_PREFIX = 'link_';

export interface TelegramLinksDeps {
  links: TelegramLinksRepo;
  users: { findById(id: string): Promise<UserProfile | undefined> };
  chats: TelegramChatsRepo;
  telegram: Pick<TelegramSettingsService, 'liveBot'>;
  audit: AuditRepo;
  clock: Clock;
}

/**
 * One customer in both places: the dashboard hands out a one-time link (`t.me/<bot>?start=link_<token>`) that ties
 * the Telegram user who opens it to the signed-in customer; a customer has at most one Telegram, and a Telegram user
 * one customer.
 */
export function createTelegramLinks(deps: TelegramLinksDeps) {
  const botOff = () => new AppError(503, 'service_unavailable', 'The store has no Telegram bot switched on.');
  /** Whether the Telegram user is linked to a customer who has no e-mail (their link is not spent on a move that cannot be made). */
  const holdsCustomer = async (telegramId: number) => {
    const chat = await deps.chats.find(telegramId);
    return Boolean(chat?.userId && (await deps.users.findById(chat.userId))?.email === null);
  };

  return {
    async status(userId: string): Promise<TelegramLinkStatus> {
      const [live, chat] = await Promise.all([deps.telegram.liveBot(), deps.chats.findByUser(userId)]);
      return {
        bot: live?.me.username ? { username: live.me.username } : null,
        linked: chat ? { username: chat.username, firstName: chat.firstName } : null,
        preferences: chat ? { noticesByEmail: chat.noticesByEmail, codesByTelegram: chat.codesByTelegram } : null,
      };
    },

    /** A new one-time link for the customer (the token is kept only as its hash). */
    async createLink(user: UserProfile): Promise<TelegramLinkUrl> {
      const live = await deps.telegram.liveBot();
      if (!live?.me.username) throw botOff();
      const token = randomToken(24);
      const now = deps.clock();
      const expiresAt = addSeconds(now, LINK_TTL_SECONDS);
      await deps.links.insert({ tokenHash: sha256Hex(token), userId: user.id, expiresAt, now });
      return { url: `https://t.me/${live.me.username}?start=${LINK_PAYLOAD_PREFIX}${token}`, expiresAt: expiresAt.toISOString() };
    },

    /**
     * The Telegram user opened a link: linked to its customer, once. Answers the customer's id; null for a used or
     * expired link; `holds_customer` when this Telegram is the only way into a customer without an e-mail (not moved).
     */
    async redeem(token: string, telegramId: number): Promise<string | null | 'holds_customer'> {
      const now = deps.clock();
      const held = await holdsCustomer(telegramId);
      if (held) return 'holds_customer';
      const userId = await deps.links.redeem(sha256Hex(token), now);
      if (!userId) return null;
      if ((await deps.chats.link(telegramId, userId, now)) !== 'linked') return 'holds_customer';
      await deps.audit.record({ actorId: userId, actorEmail: null, action: 'telegram.linked', details: { telegramId, by: 'link' }, now });
      return userId;
    },

    /** Ties the Telegram user to the customer an e-mail code proved; false when this Telegram holds a customer without an e-mail. */
    async linkByCode(user: UserProfile, telegramId: number): Promise<boolean> {
      const now = deps.clock();
      if ((await deps.chats.link(telegramId, user.id, now)) !== 'linked') return false;
      await deps.audit.record({ actorId: user.id, actorEmail: user.email, action: 'telegram.linked', details: { telegramId, by: 'email_code' }, now });
      return true;
    },

    /** A customer without an e-mail signs in only through their Telegram: it cannot be unlinked until they add an address. */
    async unlink(user: UserProfile): Promise<void> {
      if (!user.email) throw new AppError(409, 'email_required', 'Add an e-mail address first: your Telegram is how you sign in.');
      const now = deps.clock();
      if (await deps.chats.unlinkUser(user.id, now)) await deps.audit.record({ actorId: user.id, actorEmail: user.email, action: 'telegram.unlinked', now });
    },
  };
}

export type TelegramLinks = ReturnType<typeof createTelegramLinks>;
