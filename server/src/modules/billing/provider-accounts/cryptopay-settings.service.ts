import { BILLING_MESSAGES, type CryptopayPaymentSettings } from '../../../../../shared/billing.js';
import { CRYPTOPAY_DEFAULT_ASSETS, CRYPTOPAY_FIATS, type UpdateCryptopayPaymentBody } from '../../../../../shared/billing-schemas.js';
import { AppError, validationFailed } from '../../../errors.js';
import { decryptSecret, encryptSecret, type Keys } from '../../../lib/crypto.js';
import { PaymentProviderError, type PaymentDriver } from '../../../payments/payment-driver.js';
import { CRYPTOPAY_PROVIDER_NAME, type PaymentProvidersRepo } from './payment-providers.repo.js';

/** Offered after cards and YooKassa unless the admin puts it first. */
export const CRYPTOPAY_DEFAULT_PRIORITY = 60;
const PROVIDER = { type: 'crypto', name: CRYPTOPAY_PROVIDER_NAME, priority: CRYPTOPAY_DEFAULT_PRIORITY } as const;

type Network = CryptopayPaymentSettings['network'];

/** What the row's settings hold (the token is sealed in its own column). */
interface StoredCryptopay {
  network: Network;
  assets: string[];
  appName: string;
}

/** The app as the server uses it: the token in clear, never sent to a client. */
export interface CryptopayConfig {
  providerId: string;
  enabled: boolean;
  token: string;
  network: Network;
  assets: string[];
}

/** Reads the app with this token (getMe): its name, or a PaymentProviderError saying why not. */
export type CryptopayConnectionTest = (keys: { token: string; network: Network }) => Promise<{ name: string }>;

const notReady = (message: string = BILLING_MESSAGES.notConfigured) => new AppError(503, 'payment_not_configured', message);

/**
 * The admin's Crypto Pay app: the network and accepted coins in clear, the API token sealed with APP_SECRET
 * (write-only). A new token, or the same one on the other network, is checked with `getMe` before it is saved.
 * The token also keys the webhook's signature (Crypto Pay signs with the SHA-256 of it): there is no other secret.
 */
export function createCryptopaySettingsService(deps: {
  providers: PaymentProvidersRepo;
  keys: Keys;
  publicUrl: URL;
  testConnection: CryptopayConnectionTest;
  storeCurrency: () => Promise<string>;
  keysChanging?: () => Promise<void>;
}) {
  const open = (sealed: string | null) => (sealed ? decryptSecret(deps.keys.encryption, sealed) : null);
  const find = () => deps.providers.findProvider<StoredCryptopay>(PROVIDER.type, PROVIDER.name);
  const takes = (currency: string) => CRYPTOPAY_FIATS.includes(currency);

  async function toSettings(): Promise<CryptopayPaymentSettings> {
    const row = await find();
    return {
      enabled: row?.enabled ?? false,
      network: row?.settings.network ?? 'mainnet',
      apiTokenSet: Boolean(row?.secretEncrypted),
      assets: row?.settings.assets ?? [...CRYPTOPAY_DEFAULT_ASSETS],
      priority: row?.priority ?? CRYPTOPAY_DEFAULT_PRIORITY,
      webhookUrl: new URL('/api/webhooks/cryptopay', deps.publicUrl).href,
      currencySupported: takes(await deps.storeCurrency()),
      appName: row?.settings.appName ?? null,
    };
  }

  async function resolve(): Promise<CryptopayConfig | null> {
    const row = await find();
    const token = open(row?.secretEncrypted ?? null);
    if (!row || !token) return null;
    return {
      providerId: row.id,
      enabled: row.enabled,
      token,
      network: row.settings.network ?? 'mainnet',
      assets: row.settings.assets ?? [...CRYPTOPAY_DEFAULT_ASSETS],
    };
  }

  return {
    getAdminSettings: toSettings,

    /** The app in clear for the driver; null until a token is saved. */
    resolve,

    async publicState(currency: string): Promise<{ ready: boolean; priority: number }> {
      const row = await find();
      return { ready: Boolean(row?.enabled && row.secretEncrypted) && takes(currency), priority: row?.priority ?? CRYPTOPAY_DEFAULT_PRIORITY };
    },

    /** For a new checkout: the app's driver, or 503 while it is off or the store's currency is not one Crypto Pay prices in. */
    async forCheckout(currency: string, drivers: (app: CryptopayConfig) => PaymentDriver): Promise<{ driver: PaymentDriver; providerId: string }> {
      const app = await resolve();
      if (!app?.enabled) throw notReady();
      if (!takes(currency)) throw notReady(BILLING_MESSAGES.currencyNotTaken);
      return { driver: drivers(app), providerId: app.providerId };
    },

    /** Saves the given fields; a new token (or network) is checked with getMe first, and enabling needs a token. */
    async updateSettings(body: UpdateCryptopayPaymentBody, now: Date): Promise<CryptopayPaymentSettings> {
      const row = await find();
      const token = body.apiToken !== undefined ? body.apiToken : open(row?.secretEncrypted ?? null);
      const network = body.network ?? row?.settings.network ?? 'mainnet';
      if ((body.enabled ?? row?.enabled ?? false) && !token)
        throw validationFailed({ apiToken: 'Add the API token before enabling Crypto Pay' }, 'Add the API token before enabling Crypto Pay.');
      const keysChange = body.apiToken !== undefined || (body.network !== undefined && body.network !== row?.settings.network);
      let appName = row?.settings.appName;
      if (keysChange && token) {
        try {
          appName = (await deps.testConnection({ token, network })).name;
        } catch (err) {
          if (!(err instanceof PaymentProviderError)) throw err;
          throw new AppError(400, 'connection_failed', `Could not read the app: ${err.message}`);
        }
      }
      if (keysChange) await deps.keysChanging?.();
      await deps.providers.saveProvider<StoredCryptopay>(
        PROVIDER,
        {
          enabled: body.enabled,
          priority: body.priority,
          settings: {
            ...(body.network !== undefined ? { network: body.network } : {}),
            ...(body.assets !== undefined ? { assets: body.assets } : {}),
            ...(appName !== undefined ? { appName } : {}),
          },
          secretEncrypted: body.apiToken === undefined ? undefined : body.apiToken === null ? null : encryptSecret(deps.keys.encryption, body.apiToken),
        },
        now,
      );
      if (keysChange) await deps.keysChanging?.();
      return toSettings();
    },
  };
}

export type CryptopaySettingsService = ReturnType<typeof createCryptopaySettingsService>;
