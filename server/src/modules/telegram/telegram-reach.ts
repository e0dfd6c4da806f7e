import type { Db } from '../../db/knex.js';
import { createTelegramChatsRepo, type TelegramChat } from './telegram-chats.repo.js';
import { createTelegramSettingsRepo, type StoredTelegram } from './telegram-settings.repo.js';

/** The bot runs now: switched on, with a token Telegram answered for (as `liveBot` has it). */
const botIsOn = (stored: StoredTelegram): boolean => stored.enabled && Boolean(stored.tokenSealed) && Boolean(stored.me);

/** The customer's chat when the bot can write to it (the bot being on aside): linked, and not blocking the bot. */
export const reachableChat = (chat: TelegramChat | undefined): TelegramChat | null => (chat?.userId && !chat.blockedAt ? chat : null);

/**
 * Whether a billing notice goes to the customer by e-mail: not when they chose Telegram only and the bot can reach
 * them now (it is on, their Telegram is linked and has not blocked it). Anything else (no Telegram, a blocked bot, a
 * store that switched the bot off) and the e-mail goes as before, so nothing is lost. Billing asks it before each
 * e-mail; billing is built before this module (and cannot import it), so records.module.ts builds this from the
 * tables, as it does the bot's token.
 */
export function createNoticeEmailChoice(db: Db): (userId: string) => Promise<boolean> {
  const settings = createTelegramSettingsRepo(db);
  const chats = createTelegramChatsRepo(db);
  return async (userId) => {
    // Most customers have no Telegram: one read answers for them.
    const chat = reachableChat(await chats.findByUser(userId));
    if (!chat || chat.noticesByEmail) return true;
    return !botIsOn(await settings.get());
  };
}
