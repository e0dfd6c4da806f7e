import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex.js';
import { parseJson, toBool, toJson } from '../../db/values.js';

/** The card provider's row as stored: the secrets stay sealed here (see card-settings.service.ts). */
export interface CardProviderRow {
  id: string;
  name: string;
  enabled: boolean;
  publishableKey: string | null;
  secretKeyEncrypted: string | null;
  webhookSecretEncrypted: string | null;
}

/** What an update writes; `undefined` keeps a column as it is, `null` clears it. */
export interface CardProviderChanges {
  enabled?: boolean;
  publishableKey?: string | null;
  secretKeyEncrypted?: string | null;
  webhookSecretEncrypted?: string | null;
}

/** The one card provider this server knows (spec: payment_providers of type card). */
export const CARD_PROVIDER_NAME = 'stripe';

export function createPaymentProvidersRepo(db: Db) {
  async function findCardProvider(): Promise<CardProviderRow | undefined> {
    const row = await db('payment_providers')
      .select('id', 'name', 'enabled', 'settings', 'secret_key_encrypted', 'webhook_secret_encrypted')
      .where({ type: 'card', name: CARD_PROVIDER_NAME })
      .first();
    if (!row) return undefined;
    const settings = parseJson<{ publishableKey?: string }>(row.settings, {});
    return {
      id: row.id,
      name: row.name,
      enabled: toBool(row.enabled),
      publishableKey: settings.publishableKey || null,
      secretKeyEncrypted: row.secret_key_encrypted ?? null,
      webhookSecretEncrypted: row.webhook_secret_encrypted ?? null,
    };
  }

  return {
    findCardProvider,

    /** Creates the card provider's row on first save, then changes only the given fields. */
    async saveCardProvider(changes: CardProviderChanges, now: Date): Promise<CardProviderRow> {
      await db('payment_providers')
        .insert({
          id: randomUUID(), name: CARD_PROVIDER_NAME, type: 'card', enabled: false, priority: 100,
          settings: toJson({}), created_at: now, updated_at: now,
        })
        .onConflict(['type', 'name'])
        .ignore();
      await db.transaction(async (trx) => {
        const row = await trx('payment_providers').select('settings').where({ type: 'card', name: CARD_PROVIDER_NAME }).first();
        const settings = parseJson<{ publishableKey?: string | null }>(row?.settings, {});
        if (changes.publishableKey !== undefined) settings.publishableKey = changes.publishableKey;
        await trx('payment_providers')
          .where({ type: 'card', name: CARD_PROVIDER_NAME })
          .update({
            settings: toJson(settings),
            ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
            ...(changes.secretKeyEncrypted !== undefined ? { secret_key_encrypted: changes.secretKeyEncrypted } : {}),
            ...(changes.webhookSecretEncrypted !== undefined ? { webhook_secret_encrypted: changes.webhookSecretEncrypted } : {}),
            updated_at: now,
          });
      });
      return (await findCardProvider())!;
    },
  };
}

export type PaymentProvidersRepo = ReturnType<typeof createPaymentProvidersRepo>;
