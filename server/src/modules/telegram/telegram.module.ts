import { localeFromAcceptLanguage } from '../../lib/locale.js';
import type { WithBilling } from '../billing/index.js';
import { defineModule, route, type Provided } from '../module.js';
import type { plansModule } from '../plans/index.js';
import { createTelegramApiFactory } from './telegram-api.js';
import { createTelegramBot } from './telegram-bot.js';
import { createTelegramChatsRepo } from './telegram-chats.repo.js';
import { createTelegramPoll, TELEGRAM_POLL } from './telegram-poll.js';
import { createTelegramSettingsRepo } from './telegram-settings.repo.js';
import { createTelegramSettingsService } from './telegram-settings.service.js';
import { adminTelegramRoutes, telegramWebhookRoutes } from './telegram.routes.js';

/**
 * The Telegram bot on the same store: its settings (the token checked and sealed), Telegram's updates by webhook or
 * by long polling, and the commands customers use in their language.
 */
export const telegramModule = defineModule({
  name: 'telegram',
  build({ config, db, keys, clock, log, audit, settings, plans }: WithBilling & Provided<typeof plansModule>) {
    const api = createTelegramApiFactory(config.telegramApiUrl);
    const repo = createTelegramSettingsRepo(db);
    const chats = createTelegramChatsRepo(db);
    const telegram = createTelegramSettingsService({
      repo,
      api,
      keys,
      publicUrl: config.publicUrl,
      updates: config.telegramUpdates,
      audit,
      clock,
    });
    const telegramBot = createTelegramBot({
      telegram,
      repo,
      chats,
      settings,
      plans,
      publicUrl: config.publicUrl,
      apiRoot: config.telegramApiUrl,
      clock,
      log,
      localeOf: (code) => localeFromAcceptLanguage(code),
    });
    return { telegram, telegramBot, telegramPoll: createTelegramPoll({ updates: config.telegramUpdates, bot: telegramBot, repo, api, clock, log }) };
  },
  routes: ({ telegram, telegramBot }) => [route(adminTelegramRoutes, { telegram }), route(telegramWebhookRoutes, { telegram, bot: telegramBot })],
  jobs: ({ telegramPoll }) => ({ [TELEGRAM_POLL]: telegramPoll }),
  periodicJobs: [TELEGRAM_POLL],
});
