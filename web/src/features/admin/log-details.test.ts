import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeLogDetails, logStepLabelId } from './log-details';

const catalog = (locale: string) =>
  JSON.parse(readFileSync(new URL(`../../i18n/messages/${locale}/adminSettings.json`, import.meta.url), 'utf8')) as Record<string, string>;

describe('the account and payment log in words', () => {
  it('reads a refund as a payment (shortened id), the total refunded as money and whether it was in full, not as key: uuid', () => {
    const transactionId = '3f2b9c1e-7d4a-4b8e-9a61-0c5d2e8f1a77';
    expect(describeLogDetails({ transactionId, amountRefunded: 1299, full: true })).toEqual([
      { key: 'transactionId', labelId: 'adminSettings.logs.key.payment', value: { kind: 'id', id: transactionId, short: '3f2b9c1e…' } },
      { key: 'amountRefunded', labelId: 'adminSettings.logs.key.amountRefunded', value: { kind: 'money', minor: 1299 } },
      { key: 'full', labelId: 'adminSettings.logs.key.fullRefund', value: { kind: 'yesNo', value: true } },
    ]);
    expect(logStepLabelId('payment_refunded')).toBe('adminSettings.logs.step.paymentRefunded');
  });

  it('shows a server by its name (not its id beside it), a moment as a date, and an amount paid in its own currency', () => {
    expect(describeLogDetails({ serverId: 's1', server: 'Frankfurt', username: 'ann_1' }).map((field) => field.key)).toEqual(['server', 'username']);
    expect(describeLogDetails({ expiresAt: '2026-01-02T03:04:05.000Z' })[0]?.value).toEqual({ kind: 'date', iso: '2026-01-02T03:04:05.000Z' });
    expect(describeLogDetails({ amountPaid: 5, currencyPaid: 'btc', amountOrdered: 999 })).toEqual([
      { key: 'amountPaid', labelId: 'adminSettings.logs.key.amountPaid', value: { kind: 'money', minor: 5, currency: 'btc' } },
      { key: 'amountOrdered', labelId: 'adminSettings.logs.key.amountOrdered', value: { kind: 'money', minor: 999 } },
    ]);
  });

  it('leaves out empty values and shows a key it does not know as it came', () => {
    expect(describeLogDetails({ removedAccountId: null, error: '', extra: { a: 1 } })).toEqual([{ key: 'extra', value: { kind: 'text', text: '{"a":1}' } }]);
    expect(describeLogDetails(null)).toEqual([]);
    expect(logStepLabelId('something_new')).toBeUndefined();
    expect(logStepLabelId('toString')).toBeUndefined();
  });

  it('names every step the server logs in English and Russian', () => {
    const steps = [
      'select_server',
      'create_panel_user',
      'account_created',
      'account_renewed',
      'account_paused',
      'account_paused_unpaid',
      'paid_period_synced',
      'delete_panel_user',
      'delete_account',
      'panel_user_missing',
      'stuck_account_removed',
      'stuck_account_adopted',
      'checkout_started',
      'payment_succeeded',
      'payment_failed',
      'payment_needs_review',
      'payment_refunded',
      'refund_failed',
      'payment_disputed',
      'dispute_won',
      'dispute_lost',
      'renewal_paid',
      'renewal_failed',
      'renewal_held',
      'renewal_refunded',
      'subscription_canceled',
      'traffic_reset_monthly',
      'grace_data_limit',
    ];
    for (const locale of ['en', 'ru']) {
      const messages = catalog(locale);
      for (const step of steps) expect(messages[logStepLabelId(step) ?? `missing ${step}`], `${locale}: ${step}`).toBeTruthy();
    }
  });
});
