import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAnswersPlugin } from '../plugins/compress-answers.js';
import { KeptJson, sendKeptJson } from './kept-json.js';

const users = Array.from({ length: 60 }, (_, i) => ({ id: `user-${i}`, email: `user${i}@example.com`, role: 'user' }));

describe('KeptJson', () => {
  let app: FastifyInstance;
  const big = new KeptJson(JSON.stringify(users));
  const small = new KeptJson('{"ok":true}');

  beforeAll(async () => {
    app = Fastify();
    // As in the app: the plugin that compresses other answers must leave these as they are sent.
    await app.register(compressAnswersPlugin);
    app.get('/big', (request, reply) => sendKeptJson(request, reply, big));
    app.get('/small', (request, reply) => sendKeptJson(request, reply, small));
    await app.ready();
  });
  afterAll(() => app.close());

  it('compresses each encoding once, however many requests ask for it', () => {
    expect(big.encode('br')).toBe(big.encode('br'));
    expect(big.encode('gzip')).toBe(big.encode('gzip'));
    expect(big.encode('br')).not.toBe(big.encode('gzip'));
  });

  it('sends brotli, gzip or the JSON itself as the client accepts, each the same answer', async () => {
    const ask = (acceptEncoding?: string) => app.inject({ method: 'GET', url: '/big', headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
    const br = await ask('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(users);
    const gz = await ask('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(users);
    for (const accept of [undefined, 'br;q=0, gzip;q=0']) {
      const plain = await ask(accept);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.json()).toEqual(users);
    }
  });

  it('sends a small answer as it is', async () => {
    const res = await app.inject({ method: 'GET', url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.json()).toEqual({ ok: true });
  });
});
