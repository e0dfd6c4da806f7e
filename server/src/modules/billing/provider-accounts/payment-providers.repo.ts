import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/knex.js';
import { parseJson, toBool, toJson } from '../../../db/values.js';

/** The card provider's row as stored: the secrets stay sealed here (see stripe-settings.service.ts). */
export interface StripeProviderRow {
  id: string;
  name: string;
  enabled: boolean;
  publishableKey: string | null;
  secretKeyEncrypted: string | null;
  webhookSecretEncrypted: string | null;
}

/** What an update writes; `undefined` keeps a column as it is, `null` clears it. */
export interface StripeProviderChanges {
  enabled?: boolean;
  publishableKey?: string | null;
  secretKeyEncrypted?: string | null;
  webhookSecretEncrypted?: string | null;
}

/** The one card provider this server knows (spec: payment_providers of type card). */
export const STRIPE_PROVIDER_NAME = 'stripe';
/** The one crypto provider: the operator's own BTCPay Server (payment_providers of type crypto). */
export const BTCPAY_PROVIDER_NAME = 'btcpay';
/** Offered after cards unless the admin puts it first (card payments have CARD_PRIORITY, 100). */
export const BTCPAY_DEFAULT_PRIORITY = 50;

/** The crypto provider's row as stored: the API key and webhook secret stay sealed here (btcpay-settings.service.ts). */
export interface BtcpayProviderRow {
  id: string;
  enabled: boolean;
  priority: number;
  serverUrl: string | null;
  storeId: string | null;
  apiKeyEncrypted: string | null;
  webhookSecretEncrypted: string | null;
}

/** What an update writes; `undefined` keeps a column as it is, `null` clears it. */
export interface BtcpayProviderChanges {
  enabled?: boolean;
  priority?: number;
  serverUrl?: string;
  storeId?: string;
  apiKeyEncrypted?: string | null;
  webhookSecretEncrypted?: string | null;
}

export function createPaymentProvidersRepo(db: Db) {
  async function findCardProvider(): Promise<StripeProviderRow | undefined> {
    const row = await db('payment_providers')
      .select('id', 'name', 'enabled', 'settings', 'secret_key_encrypted', 'webhook_secret_encrypted')
      .where({ type: 'card', name: STRIPE_PROVIDER_NAME })
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

  async function findCryptoProvider(): Promise<BtcpayProviderRow | undefined> {
    const row = await db('payment_providers')
      .select('id', 'enabled', 'priority', 'settings', 'secret_key_encrypted', 'webhook_secret_encrypted')
      .where({ type: 'crypto', name: BTCPAY_PROVIDER_NAME })
      .first();
    if (!row) return undefined;
    const settings = parseJson<{ serverUrl?: string; storeId?: string }>(row.settings, {});
    return {
      id: row.id,
      enabled: toBool(row.enabled),
      priority: Number(row.priority ?? BTCPAY_DEFAULT_PRIORITY),
      serverUrl: settings.serverUrl || null,
      storeId: settings.storeId || null,
      apiKeyEncrypted: row.secret_key_encrypted ?? null,
      webhookSecretEncrypted: row.webhook_secret_encrypted ?? null,
    };
  }

  return {
    findCardProvider,
    findCryptoProvider,

    /** Which provider a subscription's `provider_id` names ('stripe', 'btcpay'); undefined for an unknown id. */
    async findProviderName(id: string): Promise<string | undefined> {
      const row = await db('payment_providers').select('name').where({ id }).first();
      return row?.name;
    },

    /** Creates the crypto provider's row on first save, then changes only the given fields. */
    async saveCryptoProvider(changes: BtcpayProviderChanges, now: Date): Promise<BtcpayProviderRow> {
      await db('payment_providers')
        .insert({
          id: randomUUID(), name: BTCPAY_PROVIDER_NAME, type: 'crypto', enabled: false, priority: BTCPAY_DEFAULT_PRIORITY,
          settings: toJson({}), created_at: now, updated_at: now,
        })
        .onConflict(['type', 'name'])
        .ignore();
      await db.transaction(async (trx) => {
        const row = await trx('payment_providers').select('settings').where({ type: 'crypto', name: BTCPAY_PROVIDER_NAME }).first();
        const settings = parseJson<{ serverUrl?: string; storeId?: string }>(row?.settings, {});
        if (changes.serverUrl !== undefined) settings.serverUrl = changes.serverUrl;
        if (changes.storeId !== undefined) settings.storeId = changes.storeId;
        await trx('payment_providers')
          .where({ type: 'crypto', name: BTCPAY_PROVIDER_NAME })
          .update({
            settings: toJson(settings),
            ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
            ...(changes.priority !== undefined ? { priority: changes.priority } : {}),
            ...(changes.apiKeyEncrypted !== undefined ? { secret_key_encrypted: changes.apiKeyEncrypted } : {}),
            ...(changes.webhookSecretEncrypted !== undefined ? { webhook_secret_encrypted: changes.webhookSecretEncrypted } : {}),
            updated_at: now,
          });
      });
      return (await findCryptoProvider())!;
    },

    /** Creates the card provider's row on first save, then changes only the given fields. */
    async saveCardProvider(changes: StripeProviderChanges, now: Date): Promise<StripeProviderRow> {
      await db('payment_providers')
        .insert({
          id: randomUUID(), name: STRIPE_PROVIDER_NAME, type: 'card', enabled: false, priority: 100,
          settings: toJson({}), created_at: now, updated_at: now,
        })
        .onConflict(['type', 'name'])
        .ignore();
      await db.transaction(async (trx) => {
        const row = await trx('payment_providers').select('settings').where({ type: 'card', name: STRIPE_PROVIDER_NAME }).first();
        const settings = parseJson<{ publishableKey?: string | null }>(row?.settings, {});
        if (changes.publishableKey !== undefined) settings.publishableKey = changes.publishableKey;
        await trx('payment_providers')
          .where({ type: 'card', name: STRIPE_PROVIDER_NAME })
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
