import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAnswersPlugin } from './compress-answers.js';

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `account-${i}`, status: 'active', planName: `Plan ${i % 7}`, usedTrafficBytes: i * 1_048_576 }));

describe('compress-answers', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    await app.register(compressAnswersPlugin);
    app.get('/json', async () => rows(40));
    app.get('/big', async () => rows(2000));
    app.get('/small', async () => ({ ok: true }));
    app.get('/text', async (_request, reply) => reply.type('text/plain; charset=utf-8').send('vless://x\n'.repeat(300)));
    app.get('/png', async (_request, reply) => reply.type('image/png').send(Buffer.alloc(4096, 1)));
    app.get('/ready', async (_request, reply) =>
      reply
        .header('content-encoding', 'br')
        .type('application/json')
        .send(Buffer.from('already compressed bytes'.repeat(100))),
    );
    app.get('/vary', async (_request, reply) => reply.header('vary', 'Origin').send(rows(40)));
    await app.ready();
  });
  afterAll(() => app.close());

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends brotli to a browser, which decodes to the same JSON, and says the answer varies by Accept-Encoding', async () => {
    const res = await get('/json', 'gzip, deflate, br, zstd');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.rawPayload.length).toBeLessThan(JSON.stringify(rows(40)).length / 3);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(res.rawPayload).toString())).toEqual(rows(40));
  });

  it('sends gzip to a client that takes only gzip, and a large answer compressed off the event loop decodes whole', async () => {
    const gz = await get('/json', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(rows(40));
    const big = await get('/big', 'br');
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString())).toEqual(rows(2000));
    const bigGzip = await get('/big', 'gzip');
    expect(JSON.parse(gunzipSync(bigGzip.rawPayload).toString())).toEqual(rows(2000));
  });

  it('sends the answer as it is to a client that takes neither (no header, or both refused with q=0), still varying by it', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const res = await get('/json', accept);
      expect(res.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.json()).toEqual(rows(40));
    }
  });

  it('compresses text (a /sub answer) but not a small answer, an image or one already compressed', async () => {
    const text = await get('/text', 'br');
    expect(text.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(text.rawPayload).toString()).toBe('vless://x\n'.repeat(300));
    const small = await get('/small', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });
    const png = await get('/png', 'br');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.rawPayload).toEqual(Buffer.alloc(4096, 1));
    const ready = await get('/ready', 'gzip, br');
    expect(ready.headers['content-encoding']).toBe('br');
    expect(ready.rawPayload.toString()).toBe('already compressed bytes'.repeat(100));
  });

  it('keeps what Vary already names', async () => {
    const res = await get('/vary', 'br');
    expect(res.headers.vary).toBe('Origin, Accept-Encoding');
  });
});
