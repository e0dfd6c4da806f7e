import { describe, expect, it } from 'vitest';
import { findSecrets } from './check-log-secrets.js';

describe('scripts/check-log-secrets.ts', () => {
  it('finds e-mail addresses, JWTs, keys, path tokens and sign-in codes, line by line, without repeating them', () => {
    const log = [
      '{"msg":"incoming request","req":{"url":"/sub/Zk3xQ9vT0bLm"}}',
      '{"msg":"sent","to":"someone@example.com"}',
      '{"msg":"ok","req":{"url":"/sub/[redacted]/clash"},"id":"6f1c2d3e-1a2b-4c3d-8e9f-0a1b2c3d4e5f"}',
      '{"msg":"verify","code":"123456"}',
      '{"msg":"key sk_test_0123456789abcdef"}',
    ].join('\n');
    const found = findSecrets(log);
    expect(found.map((finding) => [finding.line, finding.kind])).toEqual([
      [1, 'subscription or payment-link token'],
      [2, 'e-mail address'],
      [4, 'sign-in code'],
      [5, 'payment key'],
    ]);
    expect(JSON.stringify(found)).not.toContain('someone@example.com');
  });
});
