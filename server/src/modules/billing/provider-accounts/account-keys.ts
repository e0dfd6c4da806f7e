import type { FastifyBaseLogger } from 'fastify';
import type { ProviderMethod } from '../../../../../shared/billing-schemas.js';
import type { Clock } from '../../../lib/clock.js';
import { decryptSecret, encryptSecret, sha256Hex, type Keys } from '../../../lib/crypto.js';
import type { PaymentDriver } from '../../../payments/payment-driver.js';
import { customerKeyOf } from './payment-customers.js';
import type { ProviderKeys, ProviderSource } from './provider-sources.js';
import type { ProviderAccountRow, ProviderAccountsRepo, SavedAccountKeys } from './provider-accounts.repo.js';

/**
 * The keys behind the account drivers (account-drivers.ts): sealed and opened with the encryption key, the keys
 * in force recorded under their account once per key, and the driver the keys an account keeps make.
 */

export interface AccountDriversDeps {
  repo: ProviderAccountsRepo;
  keys: Keys;
  sources: ProviderSource[];
  clock: Clock;
  log: FastifyBaseLogger;
}

/** What the account drivers work with: their deps, the sources by method and by provider, and the keys this process recorded. */
export interface AccountDriversContext {
  deps: AccountDriversDeps;
  /** Keys already recorded by this process (one write per key, not one per checkout). */
  recorded: Map<string, Promise<ProviderAccountRow>>;
  sourceByMethod: Map<ProviderMethod, ProviderSource>;
  sourceByProvider: Map<string, ProviderSource>;
}

export function accountDriversContext(deps: AccountDriversDeps): AccountDriversContext {
  return {
    deps,
    recorded: new Map(),
    sourceByMethod: new Map(deps.sources.map((source) => [source.method, source])),
    sourceByProvider: new Map(deps.sources.map((source) => [source.provider, source])),
  };
}

export const openSecret = (ctx: AccountDriversContext, sealed: string | null) => (sealed ? decryptSecret(ctx.deps.keys.encryption, sealed) : null);
const sealSecret = (ctx: AccountDriversContext, value: string | null) => (value === null ? null : encryptSecret(ctx.deps.keys.encryption, value));

export function sourceOf(ctx: AccountDriversContext, method: ProviderMethod): ProviderSource {
  const source = ctx.sourceByMethod.get(method);
  if (!source) throw new Error(`No payment provider for the method ${method}`);
  return source;
}

export const inForce = (ctx: AccountDriversContext, method: ProviderMethod): Promise<ProviderKeys | null> => sourceOf(ctx, method).inForce();

export function driverOf(ctx: AccountDriversContext, row: ProviderAccountRow): PaymentDriver | null {
  const secret = openSecret(ctx, row.secretEncrypted);
  const source = ctx.sourceByProvider.get(row.provider);
  if (!secret || !source) return null;
  return source.fromSaved({ secret, webhookSecret: openSecret(ctx, row.webhookSecretEncrypted), settings: row.settings });
}

/** Records the keys in force under their account (read from the provider once per key); its row. */
export function record(ctx: AccountDriversContext, method: ProviderMethod, current: ProviderKeys): Promise<ProviderAccountRow> {
  const { deps, recorded } = ctx;
  const fingerprint = sha256Hex([method, current.secret, current.webhookSecret ?? '', JSON.stringify(current.settings ?? {})].join('\0'));
  let row = recorded.get(fingerprint);
  if (!row) {
    if (recorded.size > 20) recorded.clear();
    row = (async () => {
      const source = sourceOf(ctx, method);
      const accountRef = await current.driver.identifyAccount();
      const keys: SavedAccountKeys = {
        provider: source.provider,
        accountRef,
        secretEncrypted: sealSecret(ctx, current.secret),
        webhookSecretEncrypted: sealSecret(ctx, current.webhookSecret),
        settings: current.settings,
      };
      const legacyCustomerKeys = source.legacyCustomerKeys?.(current.secret) ?? [];
      return deps.repo.save(keys, { inForce: true, customerKey: customerKeyOf(source.provider, accountRef), legacyCustomerKeys }, deps.clock());
    })();
    recorded.set(fingerprint, row);
    row.catch(() => recorded.delete(fingerprint));
  }
  return row;
}

/** The account in force's id, or null when the provider cannot say which it is (no network, bad key). */
export async function identified(driver: PaymentDriver): Promise<string | null> {
  try {
    return await driver.identifyAccount();
  } catch {
    return null;
  }
}
