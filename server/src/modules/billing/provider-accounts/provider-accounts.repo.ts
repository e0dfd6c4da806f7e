import { randomUUID } from 'node:crypto';
import type { Db } from '../../../db/knex.js';
import { parseJson, toDate, toJson } from '../../../db/values.js';
import { STRIPE_PROVIDER_NAME } from './payment-providers.repo.js';

/** What a driver needs besides its secret, in clear: BTCPay's server and store, YooKassa's shop and receipts, Crypto Pay's network. */
export interface ProviderAccountSettings {
  serverUrl?: string;
  storeId?: string;
  shopId?: string;
  receipts?: { enabled: boolean; vatCode: number; taxSystemCode: number | null };
  network?: 'mainnet' | 'testnet';
}

/** One account of a provider that took payments, its keys sealed (provider-accounts.service.ts opens them). */
export interface ProviderAccountRow {
  id: string;
  /** 'stripe', 'btcpay', 'yookassa' or 'cryptopay'. */
  provider: string;
  /** Stripe: `acct_…`; BTCPay: `server address|store id`; YooKassa: the shop id; Crypto Pay: `network:app id` (see PaymentDriver.identifyAccount). */
  accountRef: string;
  secretEncrypted: string | null;
  webhookSecretEncrypted: string | null;
  settings: ProviderAccountSettings;
  createdAt: Date;
}

/** An account as the admin sees it: how many recurring subscriptions it still bills. */
export interface ProviderAccountUsage extends ProviderAccountRow {
  /** Recurring subscriptions that are active or past due there. */
  liveSubscriptions: number;
  /** Of those, the ones that will be charged again (not ending at their period end). */
  renewingSubscriptions: number;
}

export interface SavedAccountKeys {
  provider: string;
  accountRef: string;
  secretEncrypted: string | null;
  webhookSecretEncrypted: string | null;
  settings?: ProviderAccountRow['settings'];
}

const LIVE = ['active', 'past_due'];

function toRow(row: Record<string, unknown>): ProviderAccountRow {
  return {
    id: row.id as string,
    provider: row.provider as string,
    accountRef: row.account_ref as string,
    secretEncrypted: (row.secret_encrypted as string | null) ?? null,
    webhookSecretEncrypted: (row.webhook_secret_encrypted as string | null) ?? null,
    settings: parseJson<ProviderAccountRow['settings']>(row.settings, {}),
    createdAt: toDate(row.created_at),
  };
}

export function createProviderAccountsRepo(db: Db) {
  const find = async (where: Record<string, string>): Promise<ProviderAccountRow | undefined> => {
    const row = await db('provider_accounts').select('*').where(where).first();
    return row && toRow(row);
  };

  /**
   * Payments of this provider that name no account yet (taken before accounts were recorded) are the account
   * in force's: they are named now, while its keys are the ones in force, so a later switch leaves them theirs.
   * Rows of subscriptions without a provider are Stripe's card payments (from before payment_providers).
   */
  async function claimUnnamed(provider: string, accountId: string, trx: Db): Promise<void> {
    const providerIds = trx('payment_providers').select('id').where({ name: provider });
    const unnamed = trx('subscriptions')
      .whereNull('provider_account_id')
      .where((q) => {
        q.whereIn('provider_id', providerIds);
        if (provider === STRIPE_PROVIDER_NAME) q.orWhereNull('provider_id');
      });
    await unnamed.clone().update({ provider_account_id: accountId });
    await trx('transactions')
      .whereNull('provider_account_id')
      .whereIn('subscription_id', trx('subscriptions').select('id').where({ provider_account_id: accountId }))
      .update({ provider_account_id: accountId });
  }

  return {
    findById: (id: string) => find({ id }),
    findByRef: (provider: string, accountRef: string) => find({ provider, account_ref: accountRef }),

    async listForProvider(provider: string): Promise<ProviderAccountRow[]> {
      return (await db('provider_accounts').select('*').where({ provider }).orderBy('created_at', 'asc')).map(toRow);
    },

    /** Every account with the count of recurring subscriptions it still bills, oldest first. */
    async listWithUsage(): Promise<ProviderAccountUsage[]> {
      const rows = await db('provider_accounts as pa')
        .leftJoin('subscriptions as s', (join) => {
          join.on('s.provider_account_id', '=', 'pa.id').andOnVal('s.billing', '=', 'recurring').andOnIn('s.status', LIVE);
        })
        .select('pa.*')
        .count({ live: 's.id' })
        .sum({ renewing: db.raw('case when s.id is null or s.cancel_at_period_end then 0 else 1 end') })
        .groupBy('pa.id')
        .orderBy('pa.created_at', 'asc');
      return rows.map((row: Record<string, unknown>) => {
        return { ...toRow(row), liveSubscriptions: Number(row.live ?? 0), renewingSubscriptions: Number(row.renewing ?? 0) };
      });
    },

    /** The account's recurring subscriptions that will be charged again, for ending them. */
    async listRenewingSubscriptionIds(accountId: string): Promise<string[]> {
      const rows = await db('subscriptions')
        .select('id')
        .where({ provider_account_id: accountId, billing: 'recurring', cancel_at_period_end: false })
        .whereIn('status', LIVE)
        .orderBy('created_at', 'asc');
      return rows.map((row: { id: string }) => row.id);
    },

    /**
     * Records the account's keys (a rolled key replaces the old one: same account), creating its row the first
     * time, and names the unnamed payments of the provider when these are the keys in force. Customers kept
     * under a fingerprint of a key (`legacyCustomerKeys`) move to the account's key `customerKey`.
     */
    async save(
      keys: SavedAccountKeys,
      options: { inForce: boolean; customerKey?: string; legacyCustomerKeys?: string[] },
      now: Date,
    ): Promise<ProviderAccountRow> {
      return db.transaction(async (trx) => {
        await trx('provider_accounts')
          .insert({
            id: randomUUID(),
            provider: keys.provider,
            account_ref: keys.accountRef,
            secret_encrypted: keys.secretEncrypted,
            webhook_secret_encrypted: keys.webhookSecretEncrypted,
            settings: toJson(keys.settings ?? {}),
            created_at: now,
            updated_at: now,
          })
          .onConflict(['provider', 'account_ref'])
          .merge(['secret_encrypted', 'webhook_secret_encrypted', 'settings', 'updated_at']);
        const row = toRow(await trx('provider_accounts').select('*').where({ provider: keys.provider, account_ref: keys.accountRef }).first());
        if (options.inForce) await claimUnnamed(keys.provider, row.id, trx);
        if (options.customerKey && options.legacyCustomerKeys?.length) {
          const legacy = options.legacyCustomerKeys;
          // A user with a customer under both keys keeps the account's (the newer scheme's) one.
          await trx('payment_customers')
            .whereIn('provider_key', legacy)
            .whereIn('user_id', trx('payment_customers').select('user_id').where({ provider_key: options.customerKey }))
            .delete();
          await trx('payment_customers').whereIn('provider_key', legacy).update({ provider_key: options.customerKey });
        }
        return row;
      });
    },

    /** The account that took a transaction: its own, else its subscription's; null = the account in force. */
    async accountIdOfTransaction(transactionId: string): Promise<string | null> {
      const row = await db('transactions as t')
        .join('subscriptions as s', 's.id', 't.subscription_id')
        .select('t.provider_account_id as own', 's.provider_account_id as subscription')
        .where('t.id', transactionId)
        .first();
      return (row?.own as string | null) ?? (row?.subscription as string | null) ?? null;
    },

    /** The account that bills the user's card subscriptions: the newest live one's, else the newest recurring one's. */
    async billingAccountIdOfUser(userId: string): Promise<string | null> {
      const row = await db('subscriptions')
        .select('provider_account_id')
        .where({ user_id: userId, billing: 'recurring' })
        .whereNotNull('provider_account_id')
        .whereNotNull('provider_subscription_id')
        .orderByRaw(`case when status in ('active', 'past_due') then 0 else 1 end`)
        .orderBy('created_at', 'desc')
        .first();
      return (row?.provider_account_id as string | undefined) ?? null;
    },
  };
}

export type ProviderAccountsRepo = ReturnType<typeof createProviderAccountsRepo>;
