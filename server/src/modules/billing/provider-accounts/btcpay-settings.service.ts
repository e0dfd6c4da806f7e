import { BILLING_MESSAGES, type CryptoPaymentSettings } from '../../../../../shared/billing.js';
import type { UpdateCryptoPaymentBody } from '../../../../../shared/billing-schemas.js';
import { AppError, validationFailed } from '../../../errors.js';
import { decryptSecret, encryptSecret, type Keys } from '../../../lib/crypto.js';
import { PaymentProviderError, type PaymentDriver } from '../../../payments/payment-driver.js';
import { BTCPAY_DEFAULT_PRIORITY, type BtcpayProviderRow, type PaymentProvidersRepo } from './payment-providers.repo.js';

/** The BTCPay store as the server uses it: the API key and webhook secret in clear, never sent to a client. */
export interface BtcpayConfig {
  providerId: string;
  enabled: boolean;
  serverUrl: string;
  storeId: string;
  apiKey: string;
  webhookSecret: string | null;
}

/** Reads the store with these keys: its name, or a PaymentProviderError saying why not. */
export type BtcpayConnectionTest = (store: { serverUrl: string; storeId: string; apiKey: string }) => Promise<{ name: string }>;

/**
 * The admin's BTCPay Server settings: server address and store in clear, the API key and webhook secret
 * sealed with APP_SECRET (write-only). Saving new connection details reads the store first, so a wrong
 * key or store id is refused instead of failing a customer's checkout later.
 */
export function createBtcpaySettingsService(deps: {
  providers: PaymentProvidersRepo;
  keys: Keys;
  publicUrl: URL;
  testConnection: BtcpayConnectionTest;
  /** Refuses server addresses this server must not call (link-local, cloud metadata), as for panels. Default: allow all. */
  checkServerUrl?: (url: string, field: string) => Promise<void>;
  /** Called before and after another store or new keys are saved: the store in force keeps its keys for its payments (account-drivers.ts). */
  keysChanging?: () => Promise<void>;
}) {
  const open = (sealed: string | null) => (sealed ? decryptSecret(deps.keys.encryption, sealed) : null);
  const seal = (value: string | null) => (value === null ? null : encryptSecret(deps.keys.encryption, value));
  const complete = (row: BtcpayProviderRow | undefined) => Boolean(row?.serverUrl && row.storeId && row.apiKeyEncrypted && row.webhookSecretEncrypted);

  function toSettings(row: BtcpayProviderRow | undefined): CryptoPaymentSettings {
    return {
      enabled: row?.enabled ?? false,
      serverUrl: row?.serverUrl ?? null,
      storeId: row?.storeId ?? null,
      apiKeySet: Boolean(row?.apiKeyEncrypted),
      webhookSecretSet: Boolean(row?.webhookSecretEncrypted),
      priority: row?.priority ?? BTCPAY_DEFAULT_PRIORITY,
      webhookUrl: new URL('/api/webhooks/btcpay', deps.publicUrl).href,
    };
  }

  async function resolve(): Promise<BtcpayConfig | null> {
    const row = await deps.providers.findCryptoProvider();
    const apiKey = open(row?.apiKeyEncrypted ?? null);
    if (!row?.serverUrl || !row.storeId || !apiKey) return null;
    return {
      providerId: row.id,
      enabled: row.enabled,
      serverUrl: row.serverUrl,
      storeId: row.storeId,
      apiKey,
      webhookSecret: open(row.webhookSecretEncrypted),
    };
  }

  return {
    async getAdminSettings(): Promise<CryptoPaymentSettings> {
      return toSettings(await deps.providers.findCryptoProvider());
    },

    /** The store in clear for the driver; null until its address, store id and API key are saved. */
    resolve,

    /** For a new checkout: the store's driver, or the spec's 503 while crypto payments are not set up. */
    async forCheckout(drivers: (store: BtcpayConfig) => PaymentDriver): Promise<{ driver: PaymentDriver; providerId: string }> {
      const store = await resolve();
      if (!store?.enabled || !store.webhookSecret) throw cryptoNotConfigured();
      return { driver: drivers(store), providerId: store.providerId };
    },

    /** For the public settings: whether a customer can start a crypto payment, with no decryption. */
    async getPublicState(): Promise<{ ready: boolean; priority: number }> {
      const row = await deps.providers.findCryptoProvider();
      return { ready: Boolean(row?.enabled) && complete(row), priority: row?.priority ?? BTCPAY_DEFAULT_PRIORITY };
    },

    /**
     * Saves the given fields. New connection details (address, store or API key) are tested by reading
     * the store; enabling needs every field, the webhook secret included (no payment could be confirmed
     * without it).
     */
    async updateSettings(body: UpdateCryptoPaymentBody, now: Date): Promise<CryptoPaymentSettings> {
      const row = await deps.providers.findCryptoProvider();
      const next = {
        serverUrl: body.serverUrl ?? row?.serverUrl ?? null,
        storeId: body.storeId ?? row?.storeId ?? null,
        apiKey: body.apiKey !== undefined ? body.apiKey : open(row?.apiKeyEncrypted ?? null),
        webhookSecret: body.webhookSecret !== undefined ? body.webhookSecret : open(row?.webhookSecretEncrypted ?? null),
      };
      const enabled = body.enabled ?? row?.enabled ?? false;
      if (enabled) {
        const fields: Record<string, string> = {};
        if (!next.serverUrl) fields.serverUrl = 'Add the BTCPay Server address before enabling crypto payments';
        if (!next.storeId) fields.storeId = 'Add the store id before enabling crypto payments';
        if (!next.apiKey) fields.apiKey = 'Add the API key before enabling crypto payments';
        if (!next.webhookSecret) fields.webhookSecret = 'Add the webhook secret before enabling crypto payments';
        if (Object.keys(fields).length > 0)
          throw validationFailed(fields, 'Add the server address, store id, API key and webhook secret before enabling crypto payments.');
      }
      if (body.serverUrl !== undefined) await deps.checkServerUrl?.(body.serverUrl, 'serverUrl');
      const connectionChanged = body.serverUrl !== undefined || body.storeId !== undefined || (body.apiKey !== undefined && body.apiKey !== null);
      if (connectionChanged && next.serverUrl && next.storeId && next.apiKey) {
        try {
          await deps.testConnection({ serverUrl: next.serverUrl, storeId: next.storeId, apiKey: next.apiKey });
        } catch (err) {
          if (!(err instanceof PaymentProviderError)) throw err;
          throw new AppError(400, 'connection_failed', `Could not read the store: ${err.message}`);
        }
      }
      const keysChange = connectionChanged || body.webhookSecret !== undefined;
      if (keysChange) await deps.keysChanging?.();
      await deps.providers.saveCryptoProvider(
        {
          enabled: body.enabled,
          priority: body.priority,
          serverUrl: body.serverUrl,
          storeId: body.storeId,
          apiKeyEncrypted: body.apiKey !== undefined ? seal(body.apiKey) : undefined,
          webhookSecretEncrypted: body.webhookSecret !== undefined ? seal(body.webhookSecret) : undefined,
        },
        now,
      );
      if (keysChange) await deps.keysChanging?.();
      return toSettings(await deps.providers.findCryptoProvider());
    },
  };
}

export type BtcpaySettingsService = ReturnType<typeof createBtcpaySettingsService>;

/** The 503 a crypto checkout gets while crypto payments are not set up (the spec's wording). */
export const cryptoNotConfigured = () => new AppError(503, 'payment_not_configured', BILLING_MESSAGES.cryptoNotImplemented);
