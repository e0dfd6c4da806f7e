import { describe, expect, it } from 'vitest';
import { decryptSecret, deriveKeys, encryptSecret, randomDigits } from './crypto.js';

describe('crypto helpers', () => {
  const keys = deriveKeys('a-test-secret-that-is-long-enough-000');

  it('makes codes of exactly the asked number of decimal digits, leading zeros kept', () => {
    const codes = Array.from({ length: 2000 }, () => randomDigits(6));
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(1900);
    expect(codes.some((c) => c.startsWith('0'))).toBe(true);
  });

  it('encrypts secrets so only the same key reads them back', () => {
    const sealed = encryptSecret(keys.encryption, 'panel-password');
    expect(sealed).not.toContain('panel-password');
    expect(encryptSecret(keys.encryption, 'panel-password')).not.toBe(sealed);
    expect(decryptSecret(keys.encryption, sealed)).toBe('panel-password');
    expect(() => decryptSecret(deriveKeys('another-secret-another-secret-0000').encryption, sealed)).toThrow();
  });

  it('rejects a tampered ciphertext', () => {
    const [v, iv, tag, data] = encryptSecret(keys.encryption, 'sk_live_123').split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptSecret(keys.encryption, [v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });

  it('derives a different key for each purpose', () => {
    expect(keys.otp.equals(keys.encryption)).toBe(false);
    expect(keys.jwt).not.toBe(keys.otp.toString('base64url'));
  });
});
