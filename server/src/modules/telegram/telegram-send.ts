import { GrammyError } from 'grammy';
import type { Clock } from '../../lib/clock.js';
import { isUnreachableChat, type TelegramApiFactory } from './telegram-api.js';
import type { TelegramChatsRepo } from './telegram-chats.repo.js';
import type { Pace } from './telegram-pace.js';

/** What sending one message the customer did not ask for came to: sent, they blocked the bot, or Telegram asked to wait. */
export type UnaskedSend = { outcome: 'sent' } | { outcome: 'blocked' } | { outcome: 'slow_down'; retryAfter: number };

export interface UnaskedSendDeps {
  api: TelegramApiFactory;
  pace: Pace;
  chats: Pick<TelegramChatsRepo, 'markBlocked'>;
  clock: Clock;
}

/**
 * Sends a message the bot starts (a notice, a broadcast) at Telegram's pace, as plain text without a link preview.
 * Someone who blocked the bot is marked (nothing more is sent to them until they write); a 429 is answered with the
 * wait Telegram names. Any other failure is thrown.
 */
export async function sendUnasked(deps: UnaskedSendDeps, token: string, chatId: number, text: string): Promise<UnaskedSend> {
  await deps.pace.turn(chatId);
  try {
    await deps.api(token).sendMessage(chatId, text, { link_preview_options: { is_disabled: true } });
    return { outcome: 'sent' };
  } catch (err) {
    if (isUnreachableChat(err)) {
      await deps.chats.markBlocked(chatId, deps.clock());
      return { outcome: 'blocked' };
    }
    const retryAfter = err instanceof GrammyError ? err.parameters.retry_after : undefined;
    if (retryAfter !== undefined) return { outcome: 'slow_down', retryAfter };
    throw err;
  }
}
