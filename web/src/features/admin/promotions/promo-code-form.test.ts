import { describe, expect, it } from 'vitest';
import { CreatePromoCodeBody } from '../../../../../shared/promo-codes.js';
import { NEW_PROMO_CODE, toPromoCodeBody } from './promo-code-form';

describe('toPromoCodeBody', () => {
  it('sends a percentage code for the first payment, for every plan', () => {
    const body = toPromoCodeBody({ ...NEW_PROMO_CODE, code: ' spring20 ' }, 'usd');
    expect(body).toEqual({ code: 'spring20', percentOff: 20, duration: 'once', oncePerCustomer: true });
    expect(CreatePromoCodeBody.safeParse(body).success).toBe(true);
  });

  it("sends an amount in the currency's minor units, months, plans, a limit and dates", () => {
    const body = toPromoCodeBody(
      {
        ...NEW_PROMO_CODE,
        code: 'FIVE',
        kind: 'amount',
        amountOff: '2.50',
        duration: 'repeating',
        durationMonths: '6',
        planIds: ['p1'],
        maxRedemptions: '100',
        oncePerCustomer: false,
        startsAt: '2030-01-01T00:00',
        endsAt: '2030-02-01T00:00',
      },
      'usd',
    );
    expect(body).toMatchObject({ amountOff: 250, duration: 'repeating', durationMonths: 6, planIds: ['p1'], maxRedemptions: 100, oncePerCustomer: false });
    expect(new Date(body.startsAt!).getTime()).toBe(new Date('2030-01-01T00:00').getTime());
    expect(CreatePromoCodeBody.safeParse(body).success).toBe(true);
    expect(toPromoCodeBody({ ...NEW_PROMO_CODE, code: 'YEN', kind: 'amount', amountOff: '500' }, 'jpy').amountOff).toBe(500);
  });

  it('lets the server name what is wrong: text that is no number is sent as NaN, which the schema refuses', () => {
    const body = toPromoCodeBody({ ...NEW_PROMO_CODE, code: 'BAD', kind: 'amount', amountOff: 'lots' }, 'usd');
    expect(Number.isNaN(body.amountOff)).toBe(true);
    expect(CreatePromoCodeBody.safeParse(body).success).toBe(false);
  });
});
