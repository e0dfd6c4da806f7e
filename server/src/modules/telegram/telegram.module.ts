import { localeFromAcceptLanguage } from '../../lib/locale.js';
import type { authModule } from '../auth/index.js';
import type { addOnsModule, WithBilling } from '../billing/index.js';
import type { giftCodesModule } from '../gift-codes/index.js';
import { defineModule, route, type Provided } from '../module.js';
import type { plansModule } from '../plans/index.js';
import { createTelegramApiFactory } from './telegram-api.js';
import { createTelegramBot } from './telegram-bot.js';
import { telegramBroadcastRoutes } from './telegram-broadcasts.routes.js';
import { createTelegramBroadcastsRepo } from './telegram-broadcasts.repo.js';
import { createTelegramBroadcasts, SEND_TELEGRAM_BROADCAST } from './telegram-broadcasts.service.js';
import { createTelegramChatsRepo } from './telegram-chats.repo.js';
import { createMiniApp } from './mini-app.service.js';
import { telegramAuthRoutes } from './telegram-auth.routes.js';
import { telegramLinkRoutes } from './telegram-link.routes.js';
import { createTelegramLinksRepo } from './telegram-links.repo.js';
import { createTelegramLinks } from './telegram-links.service.js';
import { telegramPayLinkRoutes } from './telegram-pay-link.routes.js';
import { createTelegramPayLinksRepo } from './telegram-pay-links.repo.js';
import { createTelegramPayLinks } from './telegram-pay-links.service.js';
import { createTelegramNoticeHandler, SEND_TELEGRAM_NOTICE } from './telegram-notices.js';
import { createTelegramPreferences } from './telegram-preferences.service.js';
import { createTelegramCodeCopy } from './telegram-sign-in-codes.js';
import { createPace, TELEGRAM_PACE } from './telegram-pace.js';
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
  build({
    config,
    db,
    keys,
    clock,
    log,
    audit,
    settings,
    plans,
    auth,
    usersRepo,
    accounts,
    notices,
    composeNotice,
    jobs,
    checkout,
    plansRepo,
    payments,
    gifts,
    addOns,
  }: WithBilling & Provided<typeof plansModule> & Provided<typeof authModule> & Provided<typeof giftCodesModule> & Provided<typeof addOnsModule>) {
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
    const links = createTelegramLinks({ links: createTelegramLinksRepo(db), users: usersRepo, chats, telegram, audit, clock });
    const preferences = createTelegramPreferences({ chats, links, audit, clock });
    const payLinks = createTelegramPayLinks({ links: createTelegramPayLinksRepo(db), auth, users: usersRepo, audit, publicUrl: config.publicUrl, clock });
    const telegramBot = createTelegramBot({
      telegram,
      repo,
      chats,
      settings,
      plans,
      links,
      auth,
      users: usersRepo,
      accounts,
      trialChannel: async () => (await telegram.liveBot())?.channel ?? null,
      stars: checkout,
      gifts,
      payLinks,
      sitePaymentMethods: async () => payments.availableMethods((await settings.getAppSettings()).currency),
      addOnsOffered: async (userId, accountId) => {
        const user = await usersRepo.findById(userId);
        return user ? (await addOns.forAccount(user, accountId)).offered.length : 0;
      },
      planById: (id) => plansRepo.findById(id),
      publicUrl: config.publicUrl,
      apiRoot: config.telegramApiUrl,
      clock,
      log,
      localeOf: (code) => localeFromAcceptLanguage(code),
    });
    // One pace for everything this instance sends unasked (notices, broadcasts): Telegram's limits are the bot's.
    const pace = createPace({ ...TELEGRAM_PACE, perSecond: config.telegramSendsPerSecond });
    // Every billing notice is also queued for the customer's Telegram (sent only where one is linked).
    notices.alsoSendBy(SEND_TELEGRAM_NOTICE);
    // Every sign-in code also goes to the customer's Telegram, at once, when they asked for that.
    auth.alsoSendCodesBy(
      createTelegramCodeCopy({ users: usersRepo, chats, telegram, settings, api, pace, clock, localeOf: (code) => localeFromAcceptLanguage(code) }),
    );
    const sendTelegramNotice = createTelegramNoticeHandler({
      composeNotice,
      users: usersRepo,
      chats,
      telegram,
      api,
      pace,
      clock,
      localeOf: (code) => localeFromAcceptLanguage(code),
    });
    const telegramBroadcasts = createTelegramBroadcasts({
      repo: createTelegramBroadcastsRepo(db),
      chats,
      jobs,
      telegram,
      api,
      pace,
      audit,
      clock,
      localeOf: (code) => localeFromAcceptLanguage(code),
    });
    const telegramMiniApp = createMiniApp({ telegram, chats, auth, users: usersRepo, audit, clock });
    return {
      telegram,
      telegramChats: chats,
      telegramLinks: links,
      telegramPreferences: preferences,
      telegramPayLinks: payLinks,
      telegramMiniApp,
      telegramBot,
      sendTelegramNotice,
      telegramBroadcasts,
      telegramPoll: createTelegramPoll({ updates: config.telegramUpdates, bot: telegramBot, repo, api, clock, log }),
    };
  },
  routes: ({ telegram, telegramBot, telegramLinks, telegramPreferences, telegramPayLinks, telegramMiniApp, telegramBroadcasts, limits }) => [
    route(adminTelegramRoutes, { telegram }),
    route(telegramWebhookRoutes, { telegram, bot: telegramBot }),
    route(telegramLinkRoutes, { links: telegramLinks, preferences: telegramPreferences }),
    route(telegramBroadcastRoutes, { broadcasts: telegramBroadcasts }),
    route(telegramAuthRoutes, { miniApp: telegramMiniApp, limits }),
    route(telegramPayLinkRoutes, { payLinks: telegramPayLinks, limits }),
  ],
  jobs: ({ telegramPoll, sendTelegramNotice, telegramBroadcasts }) => ({
    [TELEGRAM_POLL]: telegramPoll,
    [SEND_TELEGRAM_NOTICE]: sendTelegramNotice,
    [SEND_TELEGRAM_BROADCAST]: telegramBroadcasts.handler,
  }),
  periodicJobs: [TELEGRAM_POLL],
});
