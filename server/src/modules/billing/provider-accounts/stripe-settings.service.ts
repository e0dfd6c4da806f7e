import type { CardPaymentSettings, KeySource } from '../../../../../shared/billing.js';
import type { UpdateCardPaymentBody } from '../../../../../shared/billing-schemas.js';
import type { Config } from '../../../config.js';
import { validationFailed } from '../../../errors.js';
import { decryptSecret, encryptSecret, type Keys } from '../../../lib/crypto.js';
import type { StripeProviderRow, PaymentProvidersRepo } from './payment-providers.repo.js';

/** The card provider's keys in clear, for the server's own use only: never sent to a client. */
export interface StripeKeys {
  providerId: string | null;
  enabled: boolean;
  publishableKey: string | null;
  secretKey: string | null;
  webhookSecret: string | null;
}

type KeyName = 'publishableKey' | 'secretKey' | 'webhookSecret';

const ENV_NAMES: Record<KeyName, string> = {
  publishableKey: 'STRIPE_PUBLISHABLE_KEY',
  secretKey: 'STRIPE_SECRET_KEY',
  webhookSecret: 'STRIPE_WEBHOOK_SECRET',
};

/** What every page may know: whether checkout can start (enabled, with both API keys) and the publishable key. */
export interface StripePublicState {
  ready: boolean;
  publishableKey: string | null;
}

/**
 * The admin's Stripe settings: the publishable key in clear, the secret key and webhook secret sealed
 * with APP_SECRET (write-only). Environment variables override each saved key.
 */
export function createStripeSettingsService(deps: {
  providers: PaymentProvidersRepo;
  keys: Keys;
  env: Config['stripeKeys'];
  publicUrl: URL;
  /**
   * Called before and after new keys are saved: the keys in force are kept under their Stripe account, so
   * a switch to another account leaves the old one's payments their keys (account-drivers.ts).
   */
  keysChanging?: () => Promise<void>;
}) {
  const { env } = deps;
  const open = (sealed: string | null) => (sealed ? decryptSecret(deps.keys.encryption, sealed) : null);
  const seal = (value: string | null) => (value === null ? null : encryptSecret(deps.keys.encryption, value));

  /** Saved settings decide; with nothing saved, the three keys in the environment turn payments on. */
  const enabledOf = (row: StripeProviderRow | undefined) => (row ? row.enabled : Boolean(env.publishableKey && env.secretKey && env.webhookSecret));

  async function resolveKeys(): Promise<StripeKeys> {
    const row = await deps.providers.findCardProvider();
    return {
      providerId: row?.id ?? null,
      enabled: enabledOf(row),
      publishableKey: env.publishableKey ?? row?.publishableKey ?? null,
      secretKey: env.secretKey ?? open(row?.secretKeyEncrypted ?? null),
      webhookSecret: env.webhookSecret ?? open(row?.webhookSecretEncrypted ?? null),
    };
  }

  async function getAdminSettings(): Promise<CardPaymentSettings> {
    const row = await deps.providers.findCardProvider();
    const source = (name: KeyName, saved: unknown): KeySource => (env[name] ? 'env' : saved ? 'settings' : null);
    const sources = {
      publishableKey: source('publishableKey', row?.publishableKey),
      secretKey: source('secretKey', row?.secretKeyEncrypted),
      webhookSecret: source('webhookSecret', row?.webhookSecretEncrypted),
    };
    return {
      enabled: enabledOf(row),
      publishableKey: env.publishableKey ?? row?.publishableKey ?? null,
      secretKeySet: sources.secretKey !== null,
      webhookSecretSet: sources.webhookSecret !== null,
      sources,
      webhookUrl: new URL('/api/webhooks/stripe', deps.publicUrl).href,
    };
  }

  return {
    resolveKeys,
    getAdminSettings,

    /** For every page's public config: read on each request, so nothing is decrypted here. */
    async getPublicState(): Promise<StripePublicState> {
      const row = await deps.providers.findCardProvider();
      const publishableKey = env.publishableKey ?? row?.publishableKey ?? null;
      const hasSecrets = Boolean(env.secretKey ?? row?.secretKeyEncrypted) && Boolean(env.webhookSecret ?? row?.webhookSecretEncrypted);
      const ready = enabledOf(row) && Boolean(publishableKey) && hasSecrets;
      return { ready, publishableKey: ready ? publishableKey : null };
    },

    /**
     * Saves the given fields. A key set by the environment cannot be changed here; enabling needs both
     * API keys and the webhook secret (without it no payment could be confirmed by Stripe's webhook).
     */
    async updateSettings(body: UpdateCardPaymentBody, now: Date): Promise<CardPaymentSettings> {
      const fields: Record<string, string> = {};
      for (const name of Object.keys(ENV_NAMES) as KeyName[]) {
        if (body[name] !== undefined && env[name]) fields[name] = `Set by the ${ENV_NAMES[name]} environment variable`;
      }
      if (Object.keys(fields).length > 0) throw validationFailed(fields);
      if (body.enabled) {
        const current = await resolveKeys();
        const publishableKey = body.publishableKey !== undefined ? body.publishableKey : current.publishableKey;
        const secretKey = body.secretKey !== undefined ? body.secretKey : current.secretKey;
        const webhookSecret = body.webhookSecret !== undefined ? body.webhookSecret : current.webhookSecret;
        if (!publishableKey) fields.publishableKey = 'Add the publishable key before enabling card payments';
        if (!secretKey) fields.secretKey = 'Add the secret key before enabling card payments';
        if (!webhookSecret) fields.webhookSecret = 'Add the webhook signing secret before enabling card payments';
        if (Object.keys(fields).length > 0)
          throw validationFailed(fields, 'Add the publishable key, the secret key and the webhook signing secret before enabling card payments.');
      }
      const keysChange = body.secretKey !== undefined || body.webhookSecret !== undefined;
      if (keysChange) await deps.keysChanging?.();
      await deps.providers.saveCardProvider(
        {
          enabled: body.enabled,
          publishableKey: body.publishableKey,
          secretKeyEncrypted: body.secretKey !== undefined ? seal(body.secretKey) : undefined,
          webhookSecretEncrypted: body.webhookSecret !== undefined ? seal(body.webhookSecret) : undefined,
        },
        now,
      );
      if (keysChange) await deps.keysChanging?.();
      return getAdminSettings();
    },
  };
}

export type StripeSettingsService = ReturnType<typeof createStripeSettingsService>;
