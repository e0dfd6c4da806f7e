import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../../test/test-app.js';
import { BODY_LIMIT_BYTES } from '../../app.js';

const AUTH_ENDPOINTS = ['/api/auth/otp', '/api/auth/verify', '/api/auth/refresh', '/api/auth/logout'] as const;

/** Field values a careless or hostile client might send. */
const fieldValue = fc.oneof(
  fc.string(),
  fc.stringMatching(/^\d{0,8}$/),
  fc.emailAddress(),
  fc.constantFrom('web', 'desktop', 'local', 'global', 'others', '', ' ', '\u0000', 'a'.repeat(300)),
  fc.jsonValue(),
);
const authLikeBody = fc.record({ email: fieldValue, code: fieldValue, client: fieldValue, scope: fieldValue, refreshToken: fieldValue }, { requiredKeys: [] });
const rawBody = fc.oneof(
  fc.jsonValue().map((v) => ({ payload: JSON.stringify(v), contentType: 'application/json' })),
  authLikeBody.map((v) => ({ payload: JSON.stringify(v), contentType: 'application/json' })),
  fc.string().map((s) => ({ payload: s, contentType: 'application/json' })),
  fc.string().map((s) => ({ payload: s, contentType: 'text/plain' })),
  fc.string().map((s) => ({ payload: s, contentType: 'application/x-www-form-urlencoded' })),
  fc.string().map((s) => ({ payload: s, contentType: 'application/xml' })),
);

describe.each(TEST_DATABASES)('bad input on the auth endpoints (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp });
  });
  afterAll(async () => {
    await t.app.close();
  });

  const post = (url: string, payload: string, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': contentType, origin: TEST_ORIGIN }, payload });

  it('never answers 5xx and always answers { code, message } to arbitrary bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...AUTH_ENDPOINTS), rawBody, async (url, body) => {
        const res = await post(url, body.payload, body.contentType);
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode >= 400) {
          const json = res.json();
          expect(typeof json.code).toBe('string');
          expect(typeof json.message).toBe('string');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('answers 400 to a malformed e-mail, naming the field, and stores no code', async () => {
    const codesBefore = await env.database.db('otp_codes').count({ n: '*' });
    for (const email of ['', 'alice', 'alice@', '@example.com', 'a b@example.com', `${'a'.repeat(250)}@example.com`]) {
      const res = await post('/api/auth/otp', JSON.stringify({ email }));
      expect(res.statusCode, email).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { email: expect.any(String) } });
    }
    expect((await post('/api/auth/otp', JSON.stringify({}))).json().fields).toHaveProperty('email');
    expect(await env.database.db('otp_codes').count({ n: '*' })).toEqual(codesBefore);
  });

  it('answers 400 to a code that is not 6 digits', async () => {
    for (const code of ['12345', '1234567', 'abcdef', '12 456', '', 123456]) {
      const res = await post('/api/auth/verify', JSON.stringify({ email: 'a@example.com', code }));
      expect(res.statusCode, String(code)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { code: expect.any(String) } });
    }
  });

  it('answers 413 to an oversized body without reading it', async () => {
    const res = await post('/api/auth/otp', JSON.stringify({ email: 'a@example.com', pad: 'x'.repeat(BODY_LIMIT_BYTES) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 'payload_too_large', message: 'The request body is too large.' });
  });

  it('answers 400 to a body that is not JSON', async () => {
    const broken = await post('/api/auth/otp', '{"email":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ code: 'invalid_body', message: 'The request body is not valid JSON.' });
    const form = await post('/api/auth/otp', 'email=a%40example.com', 'application/x-www-form-urlencoded');
    expect(form.statusCode).toBe(400);
    expect(form.json().code).toBe('invalid_body');
    const array = await post('/api/auth/verify', '[]');
    expect(array.statusCode).toBe(400);
    expect(array.json().code).toBe('validation_failed');
  });

  it('answers 400 to an unknown client kind', async () => {
    const res = await post('/api/auth/verify', JSON.stringify({ email: 'a@example.com', code: '123456', client: 'phone' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty('client');
  });
});
