import { BILLING_MESSAGES, type YookassaPaymentSettings, type YookassaReceiptSettings } from '../../../../../shared/billing.js';
import { YOOKASSA_CURRENCY, type UpdateYookassaPaymentBody } from '../../../../../shared/billing-schemas.js';
import { AppError, validationFailed } from '../../../errors.js';
import { decryptSecret, encryptSecret, type Keys } from '../../../lib/crypto.js';
import { PaymentProviderError, type PaymentDriver } from '../../../payments/payment-driver.js';
import { YOOKASSA_PROVIDER_NAME, type PaymentProvidersRepo } from './payment-providers.repo.js';

/** Offered before cards in a rouble store (where Stripe cannot charge Russian cards) unless the admin says otherwise. */
export const YOOKASSA_DEFAULT_PRIORITY = 150;
const PROVIDER = { type: 'card', name: YOOKASSA_PROVIDER_NAME, priority: YOOKASSA_DEFAULT_PRIORITY } as const;
/** No VAT (YooKassa's code 1), until the operator picks theirs. */
const DEFAULT_RECEIPTS: YookassaReceiptSettings = { enabled: false, vatCode: 1, taxSystemCode: null };

/** What the row's settings hold (the secret key is sealed in its own column). */
interface StoredYookassa {
  shopId: string;
  receipts: YookassaReceiptSettings;
  shop: { test: boolean; fiscalization: boolean };
}

/** The shop as the server uses it: the secret key in clear, never sent to a client. */
export interface YookassaConfig {
  providerId: string;
  enabled: boolean;
  shopId: string;
  secretKey: string;
  receipts: YookassaReceiptSettings;
}

/** Reads the shop with these keys: whether it is a test shop and fiscalizes, or a PaymentProviderError saying why not. */
export type YookassaConnectionTest = (keys: {
  shopId: string;
  secretKey: string;
}) => Promise<{ test: boolean; fiscalization_enabled?: boolean; fiscalization?: { enabled: boolean } }>;

/** The 503 a YooKassa checkout gets while it is not set up, or while the store sells in another currency than roubles. */
const notReady = (message: string = BILLING_MESSAGES.notConfigured) => new AppError(503, 'payment_not_configured', message);

/**
 * The admin's YooKassa shop: the shop id and receipt settings in clear, the secret key sealed with APP_SECRET
 * (write-only). New keys are checked by reading the shop (`GET /v3/me`), which must be the shop id given; a shop
 * that fiscalizes refuses payments without a receipt, so YooKassa cannot be enabled there with receipts off.
 */
export function createYookassaSettingsService(deps: {
  providers: PaymentProvidersRepo;
  keys: Keys;
  publicUrl: URL;
  testConnection: YookassaConnectionTest;
  /** The store's currency now: YooKassa is offered in roubles only. */
  storeCurrency: () => Promise<string>;
  /** Called before and after new keys are saved: the shop in force keeps its keys for its payments (account-drivers.ts). */
  keysChanging?: () => Promise<void>;
}) {
  const open = (sealed: string | null) => (sealed ? decryptSecret(deps.keys.encryption, sealed) : null);
  const find = () => deps.providers.findProvider<StoredYookassa>(PROVIDER.type, PROVIDER.name);

  async function toSettings(): Promise<YookassaPaymentSettings> {
    const row = await find();
    return {
      enabled: row?.enabled ?? false,
      shopId: row?.settings.shopId ?? null,
      secretKeySet: Boolean(row?.secretEncrypted),
      receipts: row?.settings.receipts ?? DEFAULT_RECEIPTS,
      priority: row?.priority ?? YOOKASSA_DEFAULT_PRIORITY,
      webhookUrl: new URL('/api/webhooks/yookassa', deps.publicUrl).href,
      currencySupported: (await deps.storeCurrency()) === YOOKASSA_CURRENCY,
      shop: row?.settings.shop ?? null,
    };
  }

  async function resolve(): Promise<YookassaConfig | null> {
    const row = await find();
    const secretKey = open(row?.secretEncrypted ?? null);
    if (!row?.settings.shopId || !secretKey) return null;
    return { providerId: row.id, enabled: row.enabled, shopId: row.settings.shopId, secretKey, receipts: row.settings.receipts ?? DEFAULT_RECEIPTS };
  }

  /** The shop read with the new keys: its test flag and whether it fiscalizes; a refusal is the admin's 400. */
  async function checkShop(keys: { shopId: string; secretKey: string }): Promise<StoredYookassa['shop']> {
    try {
      const shop = await deps.testConnection(keys);
      return { test: shop.test, fiscalization: shop.fiscalization?.enabled ?? shop.fiscalization_enabled ?? false };
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      throw new AppError(400, 'connection_failed', `Could not read the shop: ${err.message}`);
    }
  }

  return {
    getAdminSettings: toSettings,

    /** The shop in clear for the driver; null until its id and secret key are saved. */
    resolve,

    /** For the public settings: whether a customer can pay with YooKassa now, in `currency`. */
    async publicState(currency: string): Promise<{ ready: boolean; priority: number }> {
      const row = await find();
      const ready = Boolean(row?.enabled && row.settings.shopId && row.secretEncrypted) && currency === YOOKASSA_CURRENCY;
      return { ready, priority: row?.priority ?? YOOKASSA_DEFAULT_PRIORITY };
    },

    /** For a new checkout: the shop's driver, or 503 while it is off, incomplete, or the store does not sell in roubles. */
    async forCheckout(currency: string, drivers: (shop: YookassaConfig) => PaymentDriver): Promise<{ driver: PaymentDriver; providerId: string }> {
      const shop = await resolve();
      if (!shop?.enabled) throw notReady();
      if (currency !== YOOKASSA_CURRENCY) throw notReady(BILLING_MESSAGES.currencyNotTaken);
      return { driver: drivers(shop), providerId: shop.providerId };
    },

    /**
     * Saves the given fields. A new shop id or secret key is checked by reading the shop; enabling needs both,
     * and receipts on when the shop fiscalizes (YooKassa refuses its payments without one).
     */
    async updateSettings(body: UpdateYookassaPaymentBody, now: Date): Promise<YookassaPaymentSettings> {
      const row = await find();
      const shopId = body.shopId ?? row?.settings.shopId ?? null;
      const secretKey = body.secretKey !== undefined ? body.secretKey : open(row?.secretEncrypted ?? null);
      const receipts = body.receipts ?? row?.settings.receipts ?? DEFAULT_RECEIPTS;
      const keysChange = body.shopId !== undefined || body.secretKey !== undefined;
      let shop = row?.settings.shop;
      if (keysChange && shopId && secretKey) shop = await checkShop({ shopId, secretKey });
      if (body.enabled ?? row?.enabled ?? false) {
        const fields: Record<string, string> = {};
        if (!shopId) fields.shopId = 'Add the shop id before enabling YooKassa';
        if (!secretKey) fields.secretKey = 'Add the secret key before enabling YooKassa';
        if (shop?.fiscalization && !receipts.enabled)
          fields.receipts = 'This shop sends receipts (54-FZ): switch receipts on and choose the VAT code, or YooKassa refuses every payment';
        if (Object.keys(fields).length > 0)
          throw validationFailed(fields, 'Add the shop id and secret key (and receipts, where the shop sends them) before enabling YooKassa.');
      }
      if (keysChange) await deps.keysChanging?.();
      await deps.providers.saveProvider<StoredYookassa>(
        PROVIDER,
        {
          enabled: body.enabled,
          priority: body.priority,
          settings: {
            ...(body.shopId !== undefined ? { shopId: body.shopId } : {}),
            ...(body.receipts !== undefined ? { receipts: body.receipts } : {}),
            ...(shop ? { shop } : {}),
          },
          secretEncrypted: body.secretKey === undefined ? undefined : body.secretKey === null ? null : encryptSecret(deps.keys.encryption, body.secretKey),
        },
        now,
      );
      if (keysChange) await deps.keysChanging?.();
      return toSettings();
    },
  };
}

export type YookassaSettingsService = ReturnType<typeof createYookassaSettingsService>;
