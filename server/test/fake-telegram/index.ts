/**
 * A fake Telegram Bot API server for tests, over real HTTP on 127.0.0.1: give `fake.url` to grammY as `apiRoot` (or
 * to TELEGRAM_API_URL) and the bot talks to it as to https://api.telegram.org.
 *
 * Built from the open-source Bot API server, github.com/tdlib/telegram-bot-api 10.0 ("the source": Client.cpp,
 * ClientManager.cpp, HttpConnection.cpp, Query.cpp, WebhookActor.cpp) and the Bot API documentation:
 * - `POST|GET {url}/bot{token}/{method}`, the method name case-insensitive, arguments from the query string and a JSON,
 *   urlencoded or multipart/form-data body (grammY's own multipart, `attach://` parts and unquoted file names included);
 *   a JSON number and its text are the same argument, as the server reads every argument as text;
 * - answers `{ ok: true, result, description? }` with 200, or `{ ok: false, error_code, description, parameters? }`
 *   with HTTP status error_code (and `Retry-After` on a 429), content type application/json;
 * - the descriptions are the server's own, word for word; where one comes from TDLib or Telegram's servers rather than
 *   the Bot API server, the comment beside it says where it was taken from.
 * What is not modelled: Telegram's own delays (the 3-second pause before repeating a 409, batching of long-poll
 * wake-ups), retries of failed webhook deliveries, markup parsing (a message's text is stored as sent), media other
 * than photos, chats other than what a test declares, payments other than in Telegram Stars, the refunded_payment
 * message Telegram sends the bot after a refund, a user turning a Stars subscription off in Telegram (renewals come
 * when a test calls renewStarSubscription: the fake keeps no clock of its own).
 */
import { serveFake } from '../fake-http.js';
import { payInvoice, type Track } from './checkout.js';
import { deliverUpdate } from './deliver.js';
import { TelegramError } from './errors.js';
import type { FakeTelegram } from './handle-types.js';
import { errorAnswer } from './http.js';
import { CHAT_MEMBER_STATUSES } from './members.js';
import { startStarSubscription, storeStarPayment } from './payments.js';
import { renewStarSubscription } from './renewals.js';
import { answerRequest } from './serve.js';
import { type BotState, chatKey, newBot, unixTime, type World } from './state.js';
import { tokenProblem, tokenSecretIsValid } from './tokens.js';
import { stampUpdate } from './updates.js';

export type {
  FakeBotInfo,
  FakeInvoice,
  FakeInvoicePayment,
  FakeInvoicePaymentOutcome,
  FakePreCheckoutAnswer,
  FakeStarPayment,
  FakeStarPaymentInput,
  FakeStarRefund,
  FakeStarRenewal,
  FakeStarRenewalOptions,
  FakeStarSubscription,
  FakeTelegram,
  FakeTelegramCall,
  FakeTelegramFailure,
  FakeTelegramFile,
  FakeTelegramSent,
  FakeTelegramWebhook,
} from './handle-types.js';

export async function startFakeTelegram(): Promise<FakeTelegram> {
  const world: World = {
    bots: new Map(),
    calls: [],
    sent: [],
    invoices: [],
    preCheckoutAnswers: [],
    refunds: [],
    failures: [],
    blocked: new Set(),
    members: new Map(),
    channelIds: new Map(),
    limits: null,
    shutdown: new AbortController(),
  };
  const inFlight = new Set<Promise<unknown>>();
  const track: Track = (work) => {
    inFlight.add(work);
    work.then(
      () => inFlight.delete(work),
      () => inFlight.delete(work),
    );
    return work;
  };
  const botOf = (token: string): BotState => {
    const bot = world.bots.get(token);
    if (!bot) throw new Error(`fake Telegram: no bot with token ${token} (addBot first)`);
    return bot;
  };

  const served = await serveFake({
    answer: (req, url) => answerRequest(world, req, url),
    crashAnswer: (message) => errorAnswer(new TelegramError(500, `Internal Server Error: fake Telegram crashed: ${message}`)),
  });

  return {
    url: served.url,
    calls: world.calls,
    sent: world.sent,
    preCheckoutAnswers: world.preCheckoutAnswers,
    refunds: world.refunds,
    invoices: world.invoices,
    addBot(token, info) {
      if (tokenProblem(token) || !tokenSecretIsValid(token)) throw new Error(`fake Telegram: Telegram would never accept the token ${token}`);
      if (token.slice(0, token.indexOf(':')) !== String(info.id)) throw new Error(`fake Telegram: a token starts with its bot's id (${info.id}:…)`);
      world.bots.set(token, newBot(token, info));
    },
    callsTo: (method, token) =>
      world.calls.filter((call) => call.method.toLowerCase() === method.toLowerCase() && (token === undefined || call.token === token)),
    webhookOf(token) {
      const bot = world.bots.get(token);
      if (!bot?.webhook) return null;
      const { url, secretToken, maxConnections } = bot.webhook;
      return { url, secretToken: secretToken === '' ? null : secretToken, allowedUpdates: bot.allowedUpdates, maxConnections };
    },
    deliver: async (token, update) => track(deliverUpdate(world, botOf(token), update)),
    queueUpdate(token, update) {
      const bot = botOf(token);
      bot.queue.push(stampUpdate(bot, update));
      bot.longPoll?.wake();
    },
    failNext(method, failure) {
      if (!Number.isInteger(failure.error_code) || failure.error_code < 400 || failure.error_code > 599)
        throw new Error('fake Telegram: error_code must be an HTTP error status');
      world.failures.push({ method: method.toLowerCase(), failure });
    },
    blockChat(chatId) {
      world.blocked.add(chatKey(chatId));
    },
    unblockChat(chatId) {
      world.blocked.delete(chatKey(chatId));
    },
    setChatMember(chat, userId, status) {
      if (!CHAT_MEMBER_STATUSES.has(status)) throw new Error(`fake Telegram: unknown chat member status ${status}`);
      const key = chatKey(chat);
      const members = world.members.get(key) ?? new Map<number, string>();
      members.set(userId, status);
      world.members.set(key, members);
    },
    limitSends(options) {
      world.limits = options && { perSecond: options.perSecond };
      for (const bot of world.bots.values()) {
        bot.sendTimes = [];
        bot.chatBuckets.clear();
      }
    },
    recordStarPayment(token, payment) {
      const bot = botOf(token);
      const stored = storeStarPayment(bot, {
        userId: payment.userId,
        chargeId: payment.chargeId,
        amount: payment.amount,
        payload: payment.payload ?? '',
        date: payment.date ?? unixTime(Date.now()),
        subscriptionPeriod: payment.subscriptionPeriod ?? null,
        firstName: payment.firstName ?? `User ${payment.userId}`,
        languageCode: null,
      });
      const subscribed = [...bot.subscriptions.values()].some((known) => known.userId === stored.userId && known.payload === stored.payload);
      if (stored.subscriptionPeriod && !subscribed) startStarSubscription(bot, stored);
    },
    payInvoice: async (token, payment) => track(payInvoice(world, botOf(token), payment, track)),
    renewStarSubscription: async (token, firstChargeId, options = {}) => track(renewStarSubscription(world, botOf(token), firstChargeId, options, track)),
    starSubscription(token, firstChargeId) {
      const known = botOf(token).subscriptions.get(firstChargeId);
      if (!known) return null;
      const { userId, payload, amount, until, canceledByBot, lapsed } = known;
      return { userId, payload, amount, until, canceledByBot, lapsed };
    },
    async close() {
      world.shutdown.abort();
      for (const bot of world.bots.values()) bot.longPoll?.abort(null);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await served.close();
    },
  };
}
