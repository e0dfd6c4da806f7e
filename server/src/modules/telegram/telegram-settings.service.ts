import type { LanguageCode, UserFromGetMe } from 'grammy/types';
import type { TelegramDelivery, TelegramSettings, UpdateTelegramBody } from '../../../../shared/telegram.js';
import { AppError, validationFailed } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { decryptSecret, encryptSecret, randomToken, type Keys } from '../../lib/crypto.js';
import type { AuditRepo } from '../audit/index.js';
import type { Actor } from '../users/index.js';
import { BOT_COMMANDS } from './bot-commands.js';
import { telegramFailure, type TelegramApiFactory } from './telegram-api.js';
import type { StoredTelegram, TelegramSettingsRepo } from './telegram-settings.repo.js';

/** The webhook's path on this site. */
export const TELEGRAM_WEBHOOK_PATH = '/api/telegram/webhook';
/** What the bot asks Telegram to send it. */
export const ALLOWED_UPDATES = ['message', 'callback_query', 'pre_checkout_query', 'my_chat_member'] as const;

/** The menu button's text (one for every language: Telegram keeps one per bot). */
const MINI_APP_BUTTON = 'VPN';

/** The bot as the server uses it: the token in clear, never sent to a client. */
export interface LiveBot {
  token: string;
  webhookSecret: string | null;
  me: UserFromGetMe;
  /** A channel customers must have joined before the trial, if the admin set one. */
  channel: string | null;
}

export interface TelegramSettingsDeps {
  repo: TelegramSettingsRepo;
  api: TelegramApiFactory;
  keys: Keys;
  publicUrl: URL;
  updates: 'webhook' | 'polling';
  audit: AuditRepo;
  clock: Clock;
}

/**
 * The admin's Telegram bot: the token sealed with APP_SECRET (write-only) and checked with `getMe` before it is
 * saved; switched on, the webhook is set with a secret of our own (or deleted, when this server polls) and the
 * commands are registered in each language; switched off, the webhook is deleted.
 */
export function createTelegramSettingsService(deps: TelegramSettingsDeps) {
  const open = (sealed: string | null) => (sealed ? decryptSecret(deps.keys.encryption, sealed) : null);
  const webhookUrl = new URL(TELEGRAM_WEBHOOK_PATH, deps.publicUrl).href;

  async function delivery(stored: StoredTelegram): Promise<TelegramDelivery> {
    const token = open(stored.tokenSealed);
    if (!stored.enabled || !token) return { mode: 'off', url: null, pendingUpdates: null, lastError: null, lastErrorAt: null };
    try {
      const info = await deps.api(token).getWebhookInfo();
      return {
        mode: deps.updates,
        url: info.url || null,
        pendingUpdates: info.pending_update_count,
        lastError: info.last_error_message ?? null,
        lastErrorAt: info.last_error_date ? new Date(info.last_error_date * 1000).toISOString() : null,
      };
    } catch (err) {
      return {
        mode: deps.updates,
        url: null,
        pendingUpdates: null,
        lastError: telegramFailure(err, 'Asking Telegram about the webhook').message,
        lastErrorAt: null,
      };
    }
  }

  async function toSettings(stored: StoredTelegram): Promise<TelegramSettings> {
    return {
      enabled: stored.enabled,
      botTokenSet: stored.tokenSealed !== null,
      username: stored.me?.username ?? null,
      webhook: await delivery(stored),
      channel: stored.channel,
      adminChatIds: stored.adminChatIds,
    };
  }

  /** Points Telegram at this server (the webhook and its secret) or stops it posting (polling), and names the commands. */
  async function connect(token: string, secret: string): Promise<void> {
    const api = deps.api(token);
    try {
      if (deps.updates === 'webhook') await api.setWebhook(webhookUrl, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES], max_connections: 40 });
      else await api.deleteWebhook();
      for (const [locale, commands] of Object.entries(BOT_COMMANDS)) {
        await api.setMyCommands(commands, locale === 'en' ? {} : { language_code: (locale === 'zh-CN' ? 'zh' : locale) as LanguageCode });
      }
      // The Mini App: the chat's menu button opens the dashboard (Telegram opens Mini Apps over https only).
      if (deps.publicUrl.protocol === 'https:')
        await api.setChatMenuButton({ menu_button: { type: 'web_app', text: MINI_APP_BUTTON, web_app: { url: new URL('/dashboard', deps.publicUrl).href } } });
    } catch (err) {
      throw telegramFailure(err, deps.updates === 'webhook' ? 'Setting the webhook' : 'Switching Telegram to polling');
    }
  }

  return {
    async getSettings(): Promise<TelegramSettings> {
      return toSettings(await deps.repo.get());
    },

    /** The bot the server runs now, or null while it is off or has no token. */
    async liveBot(): Promise<LiveBot | null> {
      const stored = await deps.repo.get();
      const token = open(stored.tokenSealed);
      if (!stored.enabled || !token || !stored.me) return null;
      return { token, webhookSecret: open(stored.webhookSecretSealed), me: stored.me, channel: stored.channel };
    },

    async updateSettings(actor: Actor, body: UpdateTelegramBody): Promise<TelegramSettings> {
      const before = await deps.repo.get();
      const changes: Partial<StoredTelegram> = {};
      let token = open(before.tokenSealed);
      if (body.botToken !== undefined && body.botToken !== token) {
        token = body.botToken;
        if (token === null) Object.assign(changes, { tokenSealed: null, me: null, enabled: false });
        else {
          const me = await deps
            .api(token)
            .getMe()
            .catch((err: unknown) => {
              throw telegramFailure(err, 'Checking the bot token');
            });
          Object.assign(changes, {
            tokenSealed: encryptSecret(deps.keys.encryption, token),
            me,
          });
        }
      }
      if (body.channel !== undefined) changes.channel = body.channel;
      if (body.adminChatIds !== undefined) changes.adminChatIds = [...new Set(body.adminChatIds)];
      const enabled = body.enabled ?? changes.enabled ?? before.enabled;
      if (enabled && !token) throw validationFailed({ botToken: 'Add the bot token from @BotFather before switching the bot on' });
      changes.enabled = enabled;
      const previous = open(before.tokenSealed);
      if (enabled && token) {
        // A new secret for another bot: what the one before may still post is refused.
        const secret = (previous === token ? open(before.webhookSecretSealed) : null) ?? randomToken(32);
        await connect(token, secret);
        changes.webhookSecretSealed = encryptSecret(deps.keys.encryption, secret);
      }
      // Switched off, its token removed, or another bot now: the one before stops posting here (best effort: a
      // failure leaves nothing half-done, and what it still posts is refused without the secret).
      if (before.enabled && previous && (!enabled || previous !== token))
        await deps
          .api(previous)
          .deleteWebhook()
          .catch(() => undefined);
      const now = deps.clock();
      const saved = await deps.repo.save(changes, now);
      await deps.audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'telegram.settings_updated',
        targetType: 'settings',
        targetId: 'telegram',
        details: { enabled: saved.enabled, username: saved.me?.username ?? null, tokenChanged: body.botToken !== undefined, channel: saved.channel },
        ip: actor.ip ?? null,
        now,
      });
      return toSettings(saved);
    },
  };
}

export type TelegramSettingsService = ReturnType<typeof createTelegramSettingsService>;

/** A bot that is off answers nothing: its webhook refuses, its poll waits. */
export const botOff = () => new AppError(503, 'service_unavailable', 'The Telegram bot is switched off.');
