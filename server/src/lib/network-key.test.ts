import { describe, expect, it } from 'vitest';
import { networkKeyOf } from './network-key.js';

describe('networkKeyOf', () => {
  it('keeps an IPv4 address, and the IPv4 address inside an IPv4-mapped IPv6 one', () => {
    expect(networkKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(networkKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv6 address by its /64, however it is written', () => {
    const key = networkKeyOf('2001:db8:aa:1::1');
    expect(key).toBe('2001:db8:aa:1::/64');
    expect(networkKeyOf('2001:0db8:00aa:0001:ffff:1:2:3')).toBe(key);
    expect(networkKeyOf('2001:db8:aa:2::1')).not.toBe(key);
    expect(networkKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(networkKeyOf('64:ff9b::1.2.3.4')).toBe('64:ff9b:0:0::/64');
  });
});
