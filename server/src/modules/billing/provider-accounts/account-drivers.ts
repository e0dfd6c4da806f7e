import type { ProviderMethod } from '../../../../../shared/billing-schemas.js';
import type { PaymentDriver } from '../../../payments/payment-driver.js';
import { accountDriversContext, driverOf, identified, inForce, openSecret, record, sourceOf, type AccountDriversDeps } from './account-keys.js';

/**
 * Drivers bound to the provider account that took a payment (issue 25, item 3). The keys in force serve
 * new checkouts and the account they belong to; every account that took a payment keeps its own keys in
 * provider_accounts, so switching to another Stripe account (or BTCPay store, YooKassa shop, Crypto Pay app)
 * leaves the old account's payments working: their webhooks verify with its secret, and reads, refunds and
 * cancels go to it. Each provider is a ProviderSource (provider-sources.ts); the keys are kept as account-keys.ts says.
 */
export function createAccountDrivers(deps: AccountDriversDeps) {
  const ctx = accountDriversContext(deps);

  return {
    /** The methods that have a provider (every one but the wallet). */
    methods: (): ProviderMethod[] => deps.sources.map((source) => source.method),

    /** The provider's name behind a method ('card' → 'stripe'). */
    providerOf: (method: ProviderMethod): string => sourceOf(ctx, method).provider,

    /**
     * For a new checkout: the keys in force, recorded under their account, so the payment names the account
     * that takes it. Throws PaymentProviderError when the provider cannot say which account the keys are.
     */
    async inForceRecorded(method: ProviderMethod, driver: PaymentDriver): Promise<string> {
      const current = await inForce(ctx, method);
      if (!current) throw new Error(`No keys in force for ${method} payments`);
      return (await record(ctx, method, { ...current, driver })).id;
    },

    /**
     * Before and after the admin saves new keys: the keys in force are recorded under their account, so the
     * account keeps them once others are in force. Best effort: a key the provider refuses is not recorded.
     */
    async rememberInForce(method: ProviderMethod): Promise<void> {
      const current = await inForce(ctx, method);
      if (!current) return;
      try {
        await record(ctx, method, current);
      } catch (err) {
        deps.log.warn({ err, method }, 'payments: the account of the keys in force could not be read; its keys are not kept for after a switch');
      }
    },

    /**
     * The driver of the account that took a payment: the keys in force when it is theirs (a rolled key is
     * the same account), else the account's own; null (the account in force) for payments from before
     * accounts were recorded. Null when there are no keys for it.
     */
    async forAccount(method: ProviderMethod, accountId: string | null): Promise<PaymentDriver | null> {
      const current = await inForce(ctx, method);
      const row = accountId ? await deps.repo.findById(accountId) : undefined;
      if (!row) {
        // A payment from before accounts were recorded: recording the keys in force names it (and moves its customers).
        if (current) await record(ctx, method, current).catch(() => undefined);
        return current?.driver ?? null;
      }
      if (current && (await identified(current.driver)) === row.accountRef) return current.driver;
      return driverOf(ctx, row);
    },

    /**
     * Every driver a webhook may be for: the keys in force first, then each other account's. Accounts whose
     * keys are ones already listed add nothing (a provider that signs with a webhook secret: the same secret;
     * one that does not, whose events are read back from the account: the same key).
     */
    async forWebhook(method: ProviderMethod): Promise<PaymentDriver[]> {
      const current = await inForce(ctx, method);
      const drivers: PaymentDriver[] = current ? [current.driver] : [];
      const keyOf = (secret: string, webhookSecret: string | null) => webhookSecret ?? `key:${secret}`;
      const seen = new Set(current ? [keyOf(current.secret, current.webhookSecret)] : []);
      for (const row of await deps.repo.listForProvider(sourceOf(ctx, method).provider)) {
        const secret = openSecret(ctx, row.secretEncrypted);
        if (!secret) continue;
        const key = keyOf(secret, openSecret(ctx, row.webhookSecretEncrypted));
        if (seen.has(key)) continue;
        const driver = driverOf(ctx, row);
        if (!driver) continue;
        seen.add(key);
        drivers.push(driver);
      }
      return drivers;
    },

    /** The account in force's id for a method (recorded if it was not), or null without keys or when unreadable. */
    async inForceAccountId(method: ProviderMethod): Promise<string | null> {
      const current = await inForce(ctx, method);
      if (!current) return null;
      try {
        return (await record(ctx, method, current)).id;
      } catch {
        return null;
      }
    },
  };
}

export type AccountDrivers = ReturnType<typeof createAccountDrivers>;
