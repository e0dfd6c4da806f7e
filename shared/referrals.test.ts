import { describe, expect, it } from 'vitest';
import { referralCodeFrom } from './referrals.js';

describe('referralCodeFrom: the code in what a customer typed or pasted', () => {
  it('takes the code as typed, in any case, or out of the whole link', () => {
    expect(referralCodeFrom('abcd2345')).toBe('ABCD2345');
    expect(referralCodeFrom('  ABCD2345 ')).toBe('ABCD2345');
    expect(referralCodeFrom('https://vpn.example.com/r/ABCD2345')).toBe('ABCD2345');
    expect(referralCodeFrom('vpn.example.com/r/abcd2345/?utm=x')).toBe('ABCD2345');
  });

  it('finds no code in nothing, in other links or in text that is not one', () => {
    expect(referralCodeFrom('')).toBeNull();
    expect(referralCodeFrom('https://vpn.example.com/pricing')).toBeNull();
    expect(referralCodeFrom('my friend Bob')).toBeNull();
    expect(referralCodeFrom('<script>')).toBeNull();
  });
});
