import type { FastifyBaseLogger } from 'fastify';
import type { PaymentMethod } from '../../../../../shared/billing-schemas.js';
import type { Clock } from '../../../lib/clock.js';
import { decryptSecret, encryptSecret, sha256Hex, type Keys } from '../../../lib/crypto.js';
import type { PaymentDriver } from '../../../payments/payment-driver.js';
import { legacyCustomerKeyOf, type StripeDriverFactory } from '../../../payments/stripe/stripe-driver.js';
import type { StripeSettingsService } from './stripe-settings.service.js';
import type { BtcpaySettingsService } from './btcpay-settings.service.js';
import { customerKeyOf } from './payment-customers.js';
import { STRIPE_PROVIDER_NAME, BTCPAY_PROVIDER_NAME } from './payment-providers.repo.js';
import type { ProviderAccountRow, ProviderAccountsRepo, SavedAccountKeys } from './provider-accounts.repo.js';
import type { BtcpayDriverFactory } from './payment-drivers.js';

export const PROVIDER_OF_METHOD: Record<PaymentMethod, string> = { card: STRIPE_PROVIDER_NAME, crypto: BTCPAY_PROVIDER_NAME };

/** The keys in force for a method, in clear, and the driver they make. */
interface InForce {
  driver: PaymentDriver;
  secret: string;
  webhookSecret: string | null;
  settings?: ProviderAccountRow['settings'];
}

/**
 * Drivers bound to the provider account that took a payment (issue 25, item 3). The keys in force serve
 * new checkouts and the account they belong to; every account that took a payment keeps its own keys in
 * provider_accounts, so switching to another Stripe account (or BTCPay store) leaves the old account's
 * payments working: their webhooks verify with its secret, and reads, refunds and cancels go to it.
 */
export function createAccountDrivers(deps: {
  repo: ProviderAccountsRepo;
  keys: Keys;
  card: Pick<StripeSettingsService, 'resolveKeys'>;
  crypto: Pick<BtcpaySettingsService, 'resolve'>;
  stripeDrivers: StripeDriverFactory;
  cryptoDrivers: BtcpayDriverFactory;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  const open = (sealed: string | null) => (sealed ? decryptSecret(deps.keys.encryption, sealed) : null);
  const seal = (value: string | null) => (value === null ? null : encryptSecret(deps.keys.encryption, value));
  /** Keys already recorded by this process (one write per key, not one per checkout). */
  const recorded = new Map<string, Promise<ProviderAccountRow>>();

  async function inForce(method: PaymentMethod): Promise<InForce | null> {
    if (method === 'card') {
      const keys = await deps.card.resolveKeys();
      if (!keys.secretKey) return null;
      return { driver: deps.stripeDrivers({ secretKey: keys.secretKey, webhookSecret: keys.webhookSecret }), secret: keys.secretKey, webhookSecret: keys.webhookSecret };
    }
    const store = await deps.crypto.resolve();
    if (!store) return null;
    return {
      driver: deps.cryptoDrivers(store), secret: store.apiKey, webhookSecret: store.webhookSecret, settings: { serverUrl: store.serverUrl, storeId: store.storeId },
    };
  }

  function driverOf(row: ProviderAccountRow): PaymentDriver | null {
    const secret = open(row.secretEncrypted);
    if (!secret) return null;
    const webhookSecret = open(row.webhookSecretEncrypted);
    if (row.provider === BTCPAY_PROVIDER_NAME) {
      const { serverUrl, storeId } = row.settings;
      return serverUrl && storeId ? deps.cryptoDrivers({ serverUrl, storeId, apiKey: secret, webhookSecret }) : null;
    }
    return deps.stripeDrivers({ secretKey: secret, webhookSecret });
  }

  /** Records the keys in force under their account (read from the provider once per key); its row. */
  function record(method: PaymentMethod, current: InForce): Promise<ProviderAccountRow> {
    const fingerprint = sha256Hex([method, current.secret, current.webhookSecret ?? '', JSON.stringify(current.settings ?? {})].join('\0'));
    let row = recorded.get(fingerprint);
    if (!row) {
      if (recorded.size > 20) recorded.clear();
      row = (async () => {
        const provider = PROVIDER_OF_METHOD[method];
        const accountRef = await current.driver.identifyAccount();
        const keys: SavedAccountKeys = {
          provider, accountRef, secretEncrypted: seal(current.secret), webhookSecretEncrypted: seal(current.webhookSecret), settings: current.settings,
        };
        const legacyCustomerKeys = method === 'card' ? [legacyCustomerKeyOf(current.secret)] : [];
        return deps.repo.save(keys, { inForce: true, customerKey: customerKeyOf(provider, accountRef), legacyCustomerKeys }, deps.clock());
      })();
      recorded.set(fingerprint, row);
      row.catch(() => recorded.delete(fingerprint));
    }
    return row;
  }

  /** The account in force's id, or null when the provider cannot say which it is (no network, bad key). */
  async function identified(driver: PaymentDriver): Promise<string | null> {
    try {
      return await driver.identifyAccount();
    } catch {
      return null;
    }
  }

  return {
    /**
     * For a new checkout: the keys in force, recorded under their account, so the payment names the account
     * that takes it. Throws PaymentProviderError when the provider cannot say which account the keys are.
     */
    async inForceRecorded(method: PaymentMethod, driver: PaymentDriver): Promise<string> {
      const current = await inForce(method);
      if (!current) throw new Error(`No keys in force for ${method} payments`);
      return (await record(method, { ...current, driver })).id;
    },

    /**
     * Before and after the admin saves new keys: the keys in force are recorded under their account, so the
     * account keeps them once others are in force. Best effort: a key the provider refuses is not recorded.
     */
    async rememberInForce(method: PaymentMethod): Promise<void> {
      const current = await inForce(method);
      if (!current) return;
      try {
        await record(method, current);
      } catch (err) {
        deps.log.warn({ err, method }, 'payments: the account of the keys in force could not be read; its keys are not kept for after a switch');
      }
    },

    /**
     * The driver of the account that took a payment: the keys in force when it is theirs (a rolled key is
     * the same account), else the account's own; null (the account in force) for payments from before
     * accounts were recorded. Null when there are no keys for it.
     */
    async forAccount(method: PaymentMethod, accountId: string | null): Promise<PaymentDriver | null> {
      const current = await inForce(method);
      const row = accountId ? await deps.repo.findById(accountId) : undefined;
      if (!row) {
        // A payment from before accounts were recorded: recording the keys in force names it (and moves its customers).
        if (current) await record(method, current).catch(() => undefined);
        return current?.driver ?? null;
      }
      if (current && (await identified(current.driver)) === row.accountRef) return current.driver;
      return driverOf(row);
    },

    /**
     * Every driver a webhook may be signed for: the keys in force first, then each other account's (its own
     * webhook secret). Accounts whose webhook secret is one already listed add nothing.
     */
    async forWebhook(method: PaymentMethod): Promise<PaymentDriver[]> {
      const current = await inForce(method);
      const drivers: PaymentDriver[] = current ? [current.driver] : [];
      const secrets = new Set(current?.webhookSecret ? [current.webhookSecret] : []);
      for (const row of await deps.repo.listForProvider(PROVIDER_OF_METHOD[method])) {
        const secret = open(row.webhookSecretEncrypted);
        if (!secret || secrets.has(secret)) continue;
        const driver = driverOf(row);
        if (!driver) continue;
        secrets.add(secret);
        drivers.push(driver);
      }
      return drivers;
    },

    /** The account in force's id for a method (recorded if it was not), or null without keys or when unreadable. */
    async inForceAccountId(method: PaymentMethod): Promise<string | null> {
      const current = await inForce(method);
      if (!current) return null;
      try {
        return (await record(method, current)).id;
      } catch {
        return null;
      }
    },
  };
}

export type AccountDrivers = ReturnType<typeof createAccountDrivers>;
