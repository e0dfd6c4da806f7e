import { randomUUID } from 'node:crypto';
import type { ProviderMethod } from '../../../../../shared/billing-schemas.js';
import type { Db } from '../../../db/knex.js';
import { parseJson, toBool, toJson } from '../../../db/values.js';
import { STARS_PROVIDER_NAME } from '../../../../../shared/billing-schemas.js';

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
/** Roubles by card and SBP (payment_providers of type card, beside Stripe). */
export const YOOKASSA_PROVIDER_NAME = 'yookassa';
/** Crypto Pay, the Telegram wallet's merchant API (payment_providers of type crypto, beside BTCPay). */
export const CRYPTOPAY_PROVIDER_NAME = 'cryptopay';

/** Telegram Stars, taken by the store's bot (payment_providers of type stars). */
export { STARS_PROVIDER_NAME };

/** Whether a provider can send a payment back by itself (Crypto Pay has no refunds): the admin's Refund is offered for it. */
export const providerRefunds = (providerName: string | null): boolean => providerName !== CRYPTOPAY_PROVIDER_NAME;

/** The customer-facing method each provider takes. */
export const METHOD_OF_PROVIDER: Readonly<Record<string, ProviderMethod>> = {
  [STRIPE_PROVIDER_NAME]: 'card',
  [BTCPAY_PROVIDER_NAME]: 'crypto',
  [YOOKASSA_PROVIDER_NAME]: 'yookassa',
  [CRYPTOPAY_PROVIDER_NAME]: 'cryptopay',
  [STARS_PROVIDER_NAME]: 'stars',
};

/** The provider a method's payments go through (METHOD_OF_PROVIDER turned round). */
export const providerOfMethod = (method: ProviderMethod): string => Object.entries(METHOD_OF_PROVIDER).find(([, of]) => of === method)![0];

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

/** A provider's row as stored, its settings in clear and its one secret sealed (YooKassa, Crypto Pay). */
export interface ProviderRow<S extends object> {
  id: string;
  enabled: boolean;
  priority: number;
  settings: Partial<S>;
  secretEncrypted: string | null;
}

/** What an update writes; `undefined` keeps a field as it is, `null` clears the secret; `settings` are merged. */
export interface ProviderChanges<S extends object> {
  enabled?: boolean;
  priority?: number;
  settings?: Partial<S>;
  secretEncrypted?: string | null;
}

/** The payment providers' rows: each provider's settings read, and saved field by field (the row made on first save). */
export function createPaymentProvidersRepo(db: Db) {
  return {
    findCardProvider: () => findCardProvider(db),
    findCryptoProvider: () => findCryptoProvider(db),
    findProvider: <S extends object>(type: string, name: string) => findProvider<S>(db, type, name),
    saveProvider: <S extends object>(provider: { type: string; name: string; priority: number }, changes: ProviderChanges<S>, now: Date) =>
      saveProvider<S>(db, provider, changes, now),
    findProviderName: (id: string) => findProviderName(db, id),
    saveCryptoProvider: (changes: BtcpayProviderChanges, now: Date) => saveCryptoProvider(db, changes, now),
    saveCardProvider: (changes: StripeProviderChanges, now: Date) => saveCardProvider(db, changes, now),
  };
}

export type PaymentProvidersRepo = ReturnType<typeof createPaymentProvidersRepo>;

async function findCardProvider(db: Db): Promise<StripeProviderRow | undefined> {
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

async function findCryptoProvider(db: Db): Promise<BtcpayProviderRow | undefined> {
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

async function findProvider<S extends object>(db: Db, type: string, name: string): Promise<ProviderRow<S> | undefined> {
  const row = await db('payment_providers').select('id', 'enabled', 'priority', 'settings', 'secret_key_encrypted').where({ type, name }).first();
  if (!row) return undefined;
  return {
    id: row.id,
    enabled: toBool(row.enabled),
    priority: Number(row.priority),
    settings: parseJson<Partial<S>>(row.settings, {}),
    secretEncrypted: row.secret_key_encrypted ?? null,
  };
}

/** Creates the provider's row on first save (at `priority`), then changes only the given fields. */
async function saveProvider<S extends object>(
  db: Db,
  provider: { type: string; name: string; priority: number },
  changes: ProviderChanges<S>,
  now: Date,
): Promise<ProviderRow<S>> {
  const { secretEncrypted, settings, ...columns } = changes;
  await saveProviderRow(db, provider, { ...columns, secretKeyEncrypted: secretEncrypted, settings: settings ?? {} }, now);
  return (await findProvider<S>(db, provider.type, provider.name))!;
}

/** Which provider a subscription's `provider_id` names ('stripe', 'btcpay'); undefined for an unknown id. */
async function findProviderName(db: Db, id: string): Promise<string | undefined> {
  const row = await db('payment_providers').select('name').where({ id }).first();
  return row?.name;
}

/** What a save changes on a provider's row: keys of its settings (undefined: left as they are) and its columns where given. */
interface ProviderRowChanges {
  settings: Record<string, unknown>;
  enabled?: boolean;
  priority?: number;
  secretKeyEncrypted?: string | null;
  webhookSecretEncrypted?: string | null;
}

/** Makes the provider's row (switched off) when it has none, then applies the changes to it in one transaction. */
async function saveProviderRow(db: Db, key: { type: string; name: string; priority: number }, changes: ProviderRowChanges, now: Date): Promise<void> {
  const { type, name } = key;
  await db('payment_providers')
    .insert({ id: randomUUID(), name, type, enabled: false, priority: key.priority, settings: toJson({}), created_at: now, updated_at: now })
    .onConflict(['type', 'name'])
    .ignore();
  await db.transaction(async (trx) => {
    const row = await trx('payment_providers').select('settings').where({ type, name }).first();
    const settings = parseJson<Record<string, unknown>>(row?.settings, {});
    for (const [field, value] of Object.entries(changes.settings)) if (value !== undefined) settings[field] = value;
    await trx('payment_providers')
      .where({ type, name })
      .update({
        settings: toJson(settings),
        ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
        ...(changes.priority !== undefined ? { priority: changes.priority } : {}),
        ...(changes.secretKeyEncrypted !== undefined ? { secret_key_encrypted: changes.secretKeyEncrypted } : {}),
        ...(changes.webhookSecretEncrypted !== undefined ? { webhook_secret_encrypted: changes.webhookSecretEncrypted } : {}),
        updated_at: now,
      });
  });
}

/** Creates the crypto provider's row on first save, then changes only the given fields. */
async function saveCryptoProvider(db: Db, changes: BtcpayProviderChanges, now: Date): Promise<BtcpayProviderRow> {
  const { serverUrl, storeId, apiKeyEncrypted, ...columns } = changes;
  await saveProviderRow(
    db,
    { type: 'crypto', name: BTCPAY_PROVIDER_NAME, priority: BTCPAY_DEFAULT_PRIORITY },
    { ...columns, secretKeyEncrypted: apiKeyEncrypted, settings: { serverUrl, storeId } },
    now,
  );
  return (await findCryptoProvider(db))!;
}

/** The same for the card provider (Stripe). */
async function saveCardProvider(db: Db, changes: StripeProviderChanges, now: Date): Promise<StripeProviderRow> {
  const { publishableKey, ...columns } = changes;
  await saveProviderRow(db, { type: 'card', name: STRIPE_PROVIDER_NAME, priority: 100 }, { ...columns, settings: { publishableKey } }, now);
  return (await findCardProvider(db))!;
}
