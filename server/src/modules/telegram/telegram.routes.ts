import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { UpdateTelegramBody } from '../../../../shared/telegram.js';
import { TelegramSettingsAnswer, TelegramUpdateAnswer } from '../../answers/telegram.js';
import { AppError } from '../../errors.js';
import { safeEqualHex, sha256Hex } from '../../lib/crypto.js';
import { requireAccess, typed } from '../../lib/route-schemas.js';
import { actorOf } from '../users/index.js';
import { isTelegramError } from './telegram-api.js';
import type { TelegramBot } from './telegram-bot.js';
import { TELEGRAM_WEBHOOK_PATH, type LiveBot, type TelegramSettingsService } from './telegram-settings.service.js';

/** Telegram's updates are a few KB (a message, a button press, a payment); a bigger body is refused before it is read. */
const UPDATE_BODY_LIMIT_BYTES = 256 * 1024;
/** The header Telegram sends the secret token set with setWebhook in. */
const SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** An update as Telegram posts it: an `update_id` and one field naming what happened (read by grammY). */
const UpdateBody = z.looseObject({ update_id: z.number({ error: 'An update has an update_id' }).int().nonnegative() });

/** The admin's bot settings. */
export async function adminTelegramRoutes(app: FastifyInstance, opts: { telegram: TelegramSettingsService }) {
  requireAccess(app, 'admin');
  const response = { 200: TelegramSettingsAnswer };
  app.get('/api/admin/telegram', { schema: { response } }, async () => opts.telegram.getSettings());
  typed(app).put('/api/admin/telegram', { schema: { body: UpdateTelegramBody, response } }, async (request) =>
    opts.telegram.updateSettings(actorOf(request), request.body),
  );
}

/**
 * Telegram's webhook: the secret token header is checked before the body is read (anything else is 401 and changes
 * nothing), then the update is handled (once, however often it comes).
 */
export async function telegramWebhookRoutes(app: FastifyInstance, opts: { telegram: TelegramSettingsService; bot: TelegramBot }) {
  const refused = () => new AppError(401, 'unauthenticated', 'This request does not carry the bot’s secret token.');
  const liveBots = new WeakMap<object, LiveBot>();
  typed(app).post(
    TELEGRAM_WEBHOOK_PATH,
    {
      bodyLimit: UPDATE_BODY_LIMIT_BYTES,
      schema: { body: UpdateBody, response: { 200: TelegramUpdateAnswer } },
      onRequest: async (request) => {
        const live = await opts.telegram.liveBot();
        const header = request.headers[SECRET_HEADER];
        if (!live?.webhookSecret || typeof header !== 'string' || !safeEqualHex(sha256Hex(header), sha256Hex(live.webhookSecret))) throw refused();
        liveBots.set(request, live);
      },
    },
    async (request) => {
      // The settings the secret was checked against handle the update: read once a request.
      const outcome = await opts.bot.handle(request.body, liveBots.get(request)).catch((err: unknown) => {
        // Telegram did not take a reply: the update was given back, and Telegram sends it again after any non-2xx.
        if (isTelegramError(err)) throw new AppError(503, 'service_unavailable', 'Telegram did not take the reply; it will send the update again.');
        throw err;
      });
      if (outcome === 'off') throw refused();
      return outcome === 'repeat' ? { ok: true as const, duplicate: true as const } : { ok: true as const };
    },
  );
}
