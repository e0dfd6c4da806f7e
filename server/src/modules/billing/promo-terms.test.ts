import { describe, expect, it } from 'vitest';
import type { OrderPromo, SubscriptionRecord } from './billing.repo.js';
import { discountsLaterCharge, nextChargeAmount } from './promo-terms.js';

const bought = new Date('2026-01-15T10:00:00Z');
const promo = (duration: OrderPromo['duration'], months: number | null = null): OrderPromo => ({ code: 'X', duration, duration_months: months, discount: 100 });

describe('discountsLaterCharge', () => {
  it('once: never a later charge; forever: every one', () => {
    expect(discountsLaterCharge(promo('once'), bought, new Date('2026-02-15T10:00:00Z'))).toBe(false);
    expect(discountsLaterCharge(promo('forever'), bought, new Date('2030-02-15T10:00:00Z'))).toBe(true);
    expect(discountsLaterCharge(undefined, bought, new Date('2026-02-15T10:00:00Z'))).toBe(false);
  });

  it('repeating: the charges before its months have run out', () => {
    expect(discountsLaterCharge(promo('repeating', 3), bought, new Date('2026-03-15T10:00:00Z'))).toBe(true);
    expect(discountsLaterCharge(promo('repeating', 3), bought, new Date('2026-04-15T09:59:59Z'))).toBe(true);
    expect(discountsLaterCharge(promo('repeating', 3), bought, new Date('2026-04-15T10:00:00Z'))).toBe(false);
  });
});

describe('nextChargeAmount', () => {
  const subscription = (metadata: Partial<SubscriptionRecord['metadata']>) => ({
    createdAt: bought,
    metadata: { price: 499, ...metadata } as SubscriptionRecord['metadata'],
  });
  it('is the price, less the discount while the code lasts', () => {
    expect(nextChargeAmount(subscription({}), new Date('2026-02-15'))).toBe(499);
    expect(nextChargeAmount(subscription({ promo: promo('forever') }), new Date('2026-02-15'))).toBe(399);
    expect(nextChargeAmount(subscription({ promo: promo('once') }), new Date('2026-02-15'))).toBe(499);
  });
});
