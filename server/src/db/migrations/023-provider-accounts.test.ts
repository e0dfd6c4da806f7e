import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import * as providerAccounts from './023-provider-accounts.js';
import * as accountPaidState from './030-account-paid-state.js';

describe.each(TEST_DATABASES)('migration 023-provider-accounts on a database with payments (%s)', (kind) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase(kind);
    // 030's triggers read transactions, which 023's down rebuilds on SQLite (a rebuild checks every trigger naming the table).
    await accountPaidState.down(database.db);
    await providerAccounts.down(database.db); // back to payments that name no account
  });
  afterEach(async () => {
    await database.destroy();
  });

  async function paymentOf(providerId: string | null): Promise<{ subscriptionId: string; transactionId: string }> {
    const { db } = database;
    const now = new Date();
    const userId = randomUUID();
    await db('user_profiles').insert({ id: userId, email: `${userId}@example.com`, created_at: now, updated_at: now });
    const subscriptionId = randomUUID();
    const transactionId = randomUUID();
    await db('subscriptions').insert({ id: subscriptionId, user_id: userId, provider_id: providerId, status: 'active', created_at: now, updated_at: now });
    await db('transactions').insert({ id: transactionId, subscription_id: subscriptionId, user_id: userId, status: 'succeeded', amount: 499, created_at: now, updated_at: now });
    return { subscriptionId, transactionId };
  }

  it('names the BTCPay store in force on its payments, with its sealed keys; card payments stay unnamed until the server reads their account', async () => {
    const { db } = database;
    const now = new Date();
    const btcpayId = randomUUID();
    const stripeId = randomUUID();
    await db('payment_providers').insert([
      { id: btcpayId, name: 'btcpay', type: 'crypto', enabled: true, priority: 50, settings: JSON.stringify({ serverUrl: 'https://pay.example.com/', storeId: 'Store1' }), secret_key_encrypted: 'sealed-api-key', webhook_secret_encrypted: 'sealed-webhook', created_at: now, updated_at: now },
      { id: stripeId, name: 'stripe', type: 'card', enabled: true, priority: 100, settings: JSON.stringify({}), secret_key_encrypted: 'sealed-sk', webhook_secret_encrypted: 'sealed-whsec', created_at: now, updated_at: now },
    ]);
    const crypto = await paymentOf(btcpayId);
    const card = await paymentOf(stripeId);

    await providerAccounts.up(db);

    const accounts = await db('provider_accounts').select('*');
    expect(accounts).toEqual([expect.objectContaining({ provider: 'btcpay', account_ref: 'https://pay.example.com|Store1', secret_encrypted: 'sealed-api-key', webhook_secret_encrypted: 'sealed-webhook' })]);
    const store = accounts[0].id;
    expect(await db('subscriptions').where({ id: crypto.subscriptionId }).first()).toMatchObject({ provider_account_id: store });
    expect(await db('transactions').where({ id: crypto.transactionId }).first()).toMatchObject({ provider_account_id: store });
    expect(await db('subscriptions').where({ id: card.subscriptionId }).first()).toMatchObject({ provider_account_id: null });
    expect(await db('transactions').where({ id: card.transactionId }).first()).toMatchObject({ provider_account_id: null });
  });
});
