import { describe, expect, it } from 'vitest';
import { shownExpiry } from './shown-expiry.js';

const DAY = 24 * 3600 * 1000;
const paid = new Date('2026-12-26T10:00:00Z');
const after = (days: number) => new Date(paid.getTime() + days * DAY);

describe('the expiry a customer is shown', () => {
  it('is the paid end, not the panel expiry that carries the renewal grace period', () => {
    expect(shownExpiry(after(3), paid, 3)).toEqual(paid);
  });

  it('is the paid end when the panel has not been extended yet for a new payment', () => {
    expect(shownExpiry(after(-30), paid, 3)).toEqual(paid);
  });

  it("is the panel's when an admin gave more than the grace on top", () => {
    expect(shownExpiry(after(10), paid, 3)).toEqual(after(10));
  });

  it("is the panel's when nothing was paid (a trial, a free plan)", () => {
    expect(shownExpiry(after(3), null, 3)).toEqual(after(3));
    expect(shownExpiry(null, null, 3)).toBeNull();
  });
});
