import type { FastifyBaseLogger } from 'fastify';
import type { JobHandler } from '../../jobs/worker.js';
import { addSeconds, type Clock } from '../../lib/clock.js';
import type { TelegramApiFactory } from './telegram-api.js';
import type { TelegramBot } from './telegram-bot.js';
import type { TelegramSettingsRepo } from './telegram-settings.repo.js';
import { ALLOWED_UPDATES } from './telegram-settings.service.js';

/** The periodic job that asks Telegram for the bot's updates when the site has no address Telegram can post to. */
export const TELEGRAM_POLL = 'telegram_poll';

/** How long one long poll waits for an update (Telegram holds the request open meanwhile). */
const POLL_SECONDS = 25;
/** How soon a bot that is off, or on a webhook, is looked at again. */
const IDLE_SECONDS = 30;

/**
 * Long polling as a periodic job: one instance at a time holds it (the queue's lease), asks for the updates after
 * the last one handled, handles each (once: the same claim as the webhook's), and comes back at once. With a webhook
 * (an https site), or the bot off, it only looks again now and then.
 */
export function createTelegramPoll(deps: {
  updates: 'webhook' | 'polling';
  bot: TelegramBot;
  repo: TelegramSettingsRepo;
  api: TelegramApiFactory;
  clock: Clock;
  log: FastifyBaseLogger;
}): JobHandler {
  return async () => {
    const running = deps.updates === 'polling' ? await deps.bot.current() : null;
    if (!running)
      return { runAgainAt: addSeconds(deps.clock(), IDLE_SECONDS), note: deps.updates === 'polling' ? 'the bot is off' : 'updates come by webhook' };
    const botId = running.live.me.id;
    const offset = await deps.repo.pollOffset(botId);
    const updates = await deps.api(running.live.token).getUpdates({ offset, timeout: POLL_SECONDS, allowed_updates: [...ALLOWED_UPDATES] });
    for (const update of updates) {
      try {
        await deps.bot.handle(update);
      } catch (err) {
        // One update that cannot be answered does not hold up the rest: it is logged, and the poll moves on.
        deps.log.error({ err, updateId: update.update_id }, 'a Telegram update could not be handled');
      }
    }
    const last = updates.at(-1);
    if (last) await deps.repo.savePollOffset(botId, last.update_id + 1, deps.clock());
    return { runAgainAt: deps.clock(), note: `${updates.length} update(s)` };
  };
}
