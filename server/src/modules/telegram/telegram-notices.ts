import { DEFAULT_LOCALE, type Locale } from '../../../../shared/locales.js';
import { RetryJobLater, type JobHandler } from '../../jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import type { NoticeComposer } from '../billing/index.js';
import type { UserProfile } from '../users/index.js';
import type { TelegramApiFactory } from './telegram-api.js';
import type { TelegramChatsRepo } from './telegram-chats.repo.js';
import type { Pace } from './telegram-pace.js';
import { sendUnasked } from './telegram-send.js';
import type { TelegramSettingsService } from './telegram-settings.service.js';

/** Sends one billing notice to the customer's linked Telegram (queued beside its e-mail, once per event). */
export const SEND_TELEGRAM_NOTICE = 'send_telegram_notice';

/** Telegram refuses a message longer than this (characters after entities are parsed). */
const MESSAGE_LIMIT = 4096;

export interface TelegramNoticeDeps {
  composeNotice: NoticeComposer;
  users: { findById(id: string): Promise<UserProfile | undefined> };
  chats: TelegramChatsRepo;
  telegram: Pick<TelegramSettingsService, 'liveBot'>;
  api: TelegramApiFactory;
  pace: Pace;
  clock: Clock;
  /** The best of our languages for a Telegram `language_code` (as the bot answers them). */
  localeOf(languageCode: string): Locale;
}

/**
 * The job that tells a linked customer by Telegram what their e-mail tells them (receipts, reminders, data used,
 * failed renewals, refunds), in the language the bot writes to them in. Nothing is sent while
 * the bot is off, to a customer with no Telegram linked, or to one who blocked the bot (they are marked when Telegram
 * says so, and not tried again). Sends are paced to Telegram's limits; a 429 puts the job back for as long as it says.
 */
export function createTelegramNoticeHandler(deps: TelegramNoticeDeps): JobHandler {
  return async (payload) => {
    // No bot, nothing to compose: the usual case of a store that does not sell in Telegram costs one settings read.
    const live = await deps.telegram.liveBot();
    if (!live) return;
    const message = await deps.composeNotice(payload);
    if (!message) return;
    const [chat, user] = await Promise.all([deps.chats.findByUser(message.userId), deps.users.findById(message.userId)]);
    if (!chat || chat.blockedAt || !user) return;
    // The language the bot writes to them in: the one they chose there, else their Telegram app's.
    const locale = chat.locale ?? (chat.languageCode ? deps.localeOf(chat.languageCode) : (user.locale ?? DEFAULT_LOCALE));
    // The message's text, not an e-mail: no address is needed (a customer from the bot may have none).
    const mail = message.render(user.email ?? '', locale);
    const text = `${mail.subject}\n\n${mail.text.trim()}`.slice(0, MESSAGE_LIMIT);
    const sent = await sendUnasked(deps, live.token, chat.telegramId, text);
    if (sent.outcome === 'slow_down') throw new RetryJobLater('Telegram asked to slow down', sent.retryAfter);
  };
}
