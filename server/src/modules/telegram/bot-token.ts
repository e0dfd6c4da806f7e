import type { Db } from '../../db/knex.js';
import { decryptSecret, type Keys } from '../../lib/crypto.js';
import { createTelegramSettingsRepo } from './telegram-settings.repo.js';

/**
 * The token of the bot the store runs now, in clear; null while the bot is off or has none. The Telegram Stars
 * payments are the bot's: billing reads the token here (its provider account is the bot), before this module is built.
 */
export function createBotTokenReader(db: Db, keys: Keys): () => Promise<string | null> {
  const repo = createTelegramSettingsRepo(db);
  return async () => {
    const stored = await repo.get();
    return stored.enabled && stored.tokenSealed ? decryptSecret(keys.encryption, stored.tokenSealed) : null;
  };
}
