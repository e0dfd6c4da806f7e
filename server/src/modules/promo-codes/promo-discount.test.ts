import { describe, expect, it } from 'vitest';
import type { PromoCodeRecord } from './promo-codes.repo.js';
import { discountOf, refusalOf, usesRefusal } from './promo-discount.js';

const code = (over: Partial<PromoCodeRecord> = {}): PromoCodeRecord => ({
  id: 'p',
  code: 'SPRING',
  percentOff: 20,
  amountOff: null,
  currency: null,
  duration: 'once',
  durationMonths: null,
  planIds: null,
  maxRedemptions: null,
  oncePerCustomer: false,
  startsAt: null,
  endsAt: null,
  active: true,
  referral: false,
  createdAt: new Date(0),
  ...over,
});
const plan = { id: 'plan-1' };
const now = new Date('2026-06-01T12:00:00Z');

describe('discountOf', () => {
  it('takes a percentage rounded to the nearest minor unit, half up, and never more than the price', () => {
    expect(discountOf(code(), 1000)).toBe(200);
    expect(discountOf(code({ percentOff: 15 }), 999)).toBe(150); // 149.85
    expect(discountOf(code({ percentOff: 15 }), 990)).toBe(149); // 148.5 → 149
    expect(discountOf(code({ percentOff: 33 }), 1)).toBe(0);
    expect(discountOf(code({ percentOff: 100 }), 499)).toBe(499);
  });

  it('takes a fixed amount, never more than the price', () => {
    expect(discountOf(code({ percentOff: null, amountOff: 300 }), 1000)).toBe(300);
    expect(discountOf(code({ percentOff: null, amountOff: 3000 }), 1000)).toBe(1000);
  });
});

describe('refusalOf and usesRefusal', () => {
  it('accepts a code that is on, in its dates, for the plan, in the currency', () => {
    expect(refusalOf(code({ startsAt: new Date('2026-01-01'), endsAt: new Date('2027-01-01'), planIds: ['plan-1'] }), plan, 'usd', now)).toBeNull();
    expect(refusalOf(code({ percentOff: null, amountOff: 100, currency: 'usd' }), plan, 'usd', now)).toBeNull();
  });

  it('names why not: switched off, before its start, at or after its end, another plan, another currency', () => {
    expect(refusalOf(code({ active: false }), plan, 'usd', now)).toBe('not_found');
    expect(refusalOf(code({ startsAt: new Date('2026-06-02') }), plan, 'usd', now)).toBe('not_started');
    expect(refusalOf(code({ endsAt: now }), plan, 'usd', now)).toBe('expired');
    expect(refusalOf(code({ planIds: ['other'] }), plan, 'usd', now)).toBe('not_for_plan');
    expect(refusalOf(code({ percentOff: null, amountOff: 100, currency: 'eur' }), plan, 'usd', now)).toBe('not_for_plan');
  });

  it('counts uses: once per customer first, then the limit', () => {
    expect(usesRefusal(code({ maxRedemptions: 2 }), { total: 1, byUser: 0 })).toBeNull();
    expect(usesRefusal(code({ maxRedemptions: 2 }), { total: 2, byUser: 0 })).toBe('used_up');
    expect(usesRefusal(code({ oncePerCustomer: true, maxRedemptions: 2 }), { total: 2, byUser: 1 })).toBe('already_used');
    expect(usesRefusal(code({ oncePerCustomer: true }), { total: 50, byUser: 0 })).toBeNull();
  });
});
