import { describe, expect, it } from 'vitest';
import { maskSecrets, maskUrl, maskValue, MASK } from './log-masking.js';

describe('log masking', () => {
  it('masks the tokens of token-bearing paths and secret query values, keeping the rest of the URL', () => {
    expect(maskUrl('/sub/abc123/clash')).toBe(`/sub/${MASK}/clash`);
    expect(maskUrl('/fa/pay/Pq7wE2rT5yU8')).toBe(`/fa/pay/${MASK}`);
    expect(maskUrl('/sub')).toBe('/sub');
    expect(maskUrl('/api/admin/users?q=someone%40example.com&limit=50')).toBe(`/api/admin/users?q=${MASK}&limit=50`);
    expect(maskUrl('/x?token=short&code=123456&refresh_token=a&page=2')).toBe(`/x?token=${MASK}&code=${MASK}&refresh_token=${MASK}&page=2`);
    expect(maskUrl('/api/accounts/6f1c2d3e-1a2b-4c3d-8e9f-0a1b2c3d4e5f/devices')).toBe('/api/accounts/6f1c2d3e-1a2b-4c3d-8e9f-0a1b2c3d4e5f/devices');
  });

  it('masks e-mail addresses, JWTs, payment keys and long random tokens in any text; ids and words stay', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    const text = `mail to a.b+c@example.co.uk failed; token ${jwt}; key sk_live_51Hh7Gq2eZvKYlo2C; whsec_0123456789abcdef; refresh Zk3xQ9-vT0bLm_4Ws8yHn2RcJ6pAe1UdQ`;
    const masked = maskSecrets(text);
    for (const secret of ['a.b+c@example.co.uk', jwt, 'sk_live_51Hh7Gq2eZvKYlo2C', 'whsec_0123456789abcdef', 'Zk3xQ9-vT0bLm_4Ws8yHn2RcJ6pAe1UdQ']) {
      expect(masked).not.toContain(secret);
    }
    expect(masked).toContain('mail to');
    expect(maskSecrets('server 6f1c2d3e-1a2b-4c3d-8e9f-0a1b2c3d4e5f is down')).toBe('server 6f1c2d3e-1a2b-4c3d-8e9f-0a1b2c3d4e5f is down');
  });

  it('masks secret fields and strings deep in a logged object, and the message of an error', () => {
    const err = new Error('no account for someone@example.com');
    const masked = maskValue({
      to: 'someone@example.com',
      code: '123456',
      email: 'x',
      nested: { refreshToken: 'r', note: 'ok' },
      err,
      status: 'not_found',
    }) as Record<string, unknown>;
    expect(masked).toMatchObject({ to: MASK, code: MASK, email: MASK, nested: { refreshToken: MASK, note: 'ok' }, status: 'not_found' });
    expect((masked.err as Error).message).toBe(`no account for ${MASK}`);
    expect(masked.err).toBeInstanceOf(Error);
    expect(maskValue({ code: 'invalid_code' })).toEqual({ code: 'invalid_code' });
  });
});
