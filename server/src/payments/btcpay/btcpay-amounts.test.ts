import { describe, expect, it } from 'vitest';
import { decimalToMinor, minorToDecimal } from './btcpay-amounts.js';

describe('BTCPay amounts', () => {
  it('writes minor units as the decimal string Greenfield takes', () => {
    expect(minorToDecimal(999, 'usd')).toBe('9.99');
    expect(minorToDecimal(5, 'eur')).toBe('0.05');
    expect(minorToDecimal(1500, 'jpy')).toBe('1500');
    expect(minorToDecimal(-250, 'usd')).toBe('-2.50');
  });

  it('reads decimal strings and numbers back exactly, rounding extra decimals half up', () => {
    expect(decimalToMinor('9.99', 'USD')).toBe(999);
    expect(decimalToMinor('9.990000', 'USD')).toBe(999);
    expect(decimalToMinor('10', 'USD')).toBe(1000);
    expect(decimalToMinor(9.99, 'USD')).toBe(999);
    expect(decimalToMinor('4.995', 'USD')).toBe(500);
    expect(decimalToMinor('1500', 'JPY')).toBe(1500);
    expect(decimalToMinor('0.1', 'USD')).toBe(10);
  });

  it('gives null for what is not a decimal number', () => {
    for (const value of ['', 'abc', '1e5', '1.2.3', null, undefined, {}, Number.NaN]) expect(decimalToMinor(value, 'USD')).toBeNull();
  });
});
