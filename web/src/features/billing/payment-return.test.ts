import { beforeAll, describe, expect, it } from 'vitest';
import { i18nFor, loadCatalogs } from '../../i18n/catalogs';
import { createFormatters } from '../../i18n/format';
import type { CheckoutStatus } from '../../../../shared/billing.js';
import { describeCryptoProgress, settleCheckoutStatus } from './payment-return';

const en = () => ({ _: i18nFor('en')._.bind(i18nFor('en')), format: createFormatters('en') });

beforeAll(async () => {
  await loadCatalogs('en', ['account', 'common']);
});

describe('describeCryptoProgress', () => {
  it('says a payment made after the invoice expired is waiting for its confirmations, as one made in time is', () => {
    const { _, format } = en();
    const processing = describeCryptoProgress({ status: 'Processing', additionalStatus: 'None', amountDue: 0, amountPaid: 499 }, 'usd', _, format);
    const late = describeCryptoProgress({ status: 'Expired', additionalStatus: 'PaidLate', amountDue: 0, amountPaid: 499 }, 'usd', _, format);
    expect(late).toBe(processing);
    expect(late).toMatch(/waiting for network confirmations/);
  });

  it('says what is missing after a partial payment', () => {
    const { _, format } = en();
    expect(describeCryptoProgress({ status: 'New', additionalStatus: 'PaidPartial', amountDue: 249, amountPaid: 250 }, 'usd', _, format)).toContain('$2.49');
  });
});

describe('settleCheckoutStatus', () => {
  const answer = (status: CheckoutStatus['status']): CheckoutStatus => ({ status, subscriptionId: 'sub_1', renewal: false, currency: 'usd' });

  it('ends the wait on a checkout the customer cancelled, saying so rather than that it failed', () => {
    const { _ } = en();
    const settled = settleCheckoutStatus(answer('cancelled'), _);
    expect(settled).toEqual({ kind: 'failed', error: 'You cancelled the payment. You have not been charged.' });
    expect(settleCheckoutStatus(answer('failed'), _)).toEqual({ kind: 'failed', error: 'The payment did not go through. You have not been charged.' });
  });
});
