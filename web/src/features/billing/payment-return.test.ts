import { beforeAll, describe, expect, it } from 'vitest';
import { i18nFor, loadCatalogs } from '../../i18n/catalogs';
import { createFormatters } from '../../i18n/format';
import { describeCryptoProgress } from './payment-return';

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
