import type { FastifyBaseLogger } from 'fastify';
import { Bot, GrammyError } from 'grammy';
import type { Update } from 'grammy/types';
import type { Clock } from '../../lib/clock.js';
import { installCommands, type BotCommandDeps, type BotContext } from './bot-commands.js';
import { isUnreachableChat } from './telegram-api.js';
import type { TelegramSettingsRepo } from './telegram-settings.repo.js';
import type { LiveBot, TelegramSettingsService } from './telegram-settings.service.js';

/** What handling one update came to. */
export type UpdateOutcome = 'handled' | 'repeat' | 'off';

export interface TelegramBotDeps extends BotCommandDeps {
  telegram: TelegramSettingsService;
  repo: TelegramSettingsRepo;
  apiRoot: string;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * The running bot: built with grammY from the saved token (the bot's own details from when the token was checked,
 * so nothing is asked of Telegram at start), rebuilt when the settings change. Each update is handled once, however
 * often Telegram sends it; a person who blocked the bot is marked, and nothing more is sent to them.
 */
export function createTelegramBot(deps: TelegramBotDeps) {
  let built: { key: string; live: LiveBot; bot: Bot<BotContext> } | null = null;

  function build(live: LiveBot): Bot<BotContext> {
    const bot = new Bot<BotContext>(live.token, {
      client: { apiRoot: deps.apiRoot, timeoutSeconds: 40 },
      botInfo: live.me,
    });
    installCommands(bot, deps);
    return bot;
  }

  /** The bot for the settings in force (null while it is off); `known`: those settings, read already for this update. */
  async function current(known?: LiveBot | null): Promise<{ live: LiveBot; bot: Bot<BotContext> } | null> {
    const live = known === undefined ? await deps.telegram.liveBot() : known;
    if (!live) return (built = null);
    const key = `${live.me.id}:${live.token}`;
    if (built?.key !== key) built = { key, live, bot: build(live) };
    return built;
  }

  return {
    current,

    /** Forgets the bot built, so the next update builds it from the settings again (they changed, here or elsewhere). */
    reset(): void {
      built = null;
    },

    /**
     * Handles one update (a webhook's, or a poll's) once: a repeat of one handled before is skipped. `live`: the bot's
     * settings when the caller has just read them (the webhook, to check its secret).
     */
    async handle(update: Update, live?: LiveBot | null): Promise<UpdateOutcome> {
      const running = await current(live);
      if (!running) return 'off';
      const { bot } = running;
      if (!(await deps.repo.claimUpdate(running.live.me.id, update.update_id, deps.clock()))) return 'repeat';
      try {
        await bot.handleUpdate(update);
      } catch (err) {
        const cause = err instanceof Error && 'error' in err ? (err as { error: unknown }).error : err;
        const from = fromOf(update);
        if (from !== undefined && isUnreachableChat(cause)) {
          // Blocked, or never started: a reply cannot reach them, and trying again would not either.
          await deps.chats.markBlocked(from, deps.clock());
          return 'handled';
        }
        // Given back, so Telegram's retry (or the next poll) handles it.
        await deps.repo.releaseUpdate(running.live.me.id, update.update_id);
        if (cause instanceof GrammyError)
          deps.log.warn({ method: cause.method, code: cause.error_code, description: cause.description }, 'a Telegram call failed');
        throw cause;
      }
      return 'handled';
    },
  };
}

/** Who sent an update, where it says. */
function fromOf(update: Update): number | undefined {
  return (
    (update.message ?? update.edited_message)?.from?.id ??
    update.callback_query?.from.id ??
    update.pre_checkout_query?.from.id ??
    update.my_chat_member?.from.id
  );
}

export type TelegramBot = ReturnType<typeof createTelegramBot>;
