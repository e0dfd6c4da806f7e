import { OTP_TTL_SECONDS } from '../../../../shared/constants.js';
import { DEFAULT_LOCALE, type Locale } from '../../../../shared/locales.js';
import type { SettingsService } from '../settings/index.js';
import type { UserProfile } from '../users/index.js';
import { botText } from './bot-messages/index.js';
import type { TelegramChatsRepo } from './telegram-chats.repo.js';
import { reachableChat } from './telegram-reach.js';
import { sendUnasked, type UnaskedSendDeps } from './telegram-send.js';
import type { TelegramSettingsService } from './telegram-settings.service.js';

export interface TelegramCodeDeps extends UnaskedSendDeps {
  users: { findByEmail(email: string): Promise<UserProfile | undefined> };
  chats: Pick<TelegramChatsRepo, 'findByUser' | 'markBlocked'>;
  telegram: Pick<TelegramSettingsService, 'liveBot'>;
  settings: Pick<SettingsService, 'getAppSettings'>;
  /** The best of our languages for a Telegram `language_code` (as the bot answers them). */
  localeOf(languageCode: string): Locale;
}

/**
 * A sign-in code sent beside its e-mail to the Telegram of the address's customer, when they asked for that on their
 * dashboard and the bot can reach them (it is on, their chat linked and not blocking it), in the language the bot
 * writes to them in. Sent at once (at Telegram's pace, not through the job queue); anything else sends nothing.
 * The auth module calls it in the background, so it answers the same whether or not the address has a customer.
 */
export function createTelegramCodeCopy(deps: TelegramCodeDeps) {
  return async ({ email, code }: { email: string; code: string }): Promise<void> => {
    const user = await deps.users.findByEmail(email);
    if (!user) return;
    const chat = reachableChat(await deps.chats.findByUser(user.id));
    if (!chat?.codesByTelegram) return;
    const live = await deps.telegram.liveBot();
    if (!live) return;
    const locale = chat.locale ?? (chat.languageCode ? deps.localeOf(chat.languageCode) : (user.locale ?? DEFAULT_LOCALE));
    const { brandName } = await deps.settings.getAppSettings();
    const text = botText(locale, 'code.signIn', { brand: brandName, code, minutes: OTP_TTL_SECONDS / 60 });
    // Blocked meanwhile: marked by the send; Telegram asking to slow down: the e-mail carries the code all the same.
    await sendUnasked(deps, live.token, chat.telegramId, text);
  };
}
