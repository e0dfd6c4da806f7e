import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants as zlibConstants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { COMPRESS_FROM_BYTES, pickEncoding } from '../lib/compression.js';
import { varyOn } from '../lib/vary.js';

/** Up to this an answer is compressed on the spot (brotli 2: 12 µs for the dashboard's 2 KB); larger ones off the event loop (brotli 4). */
const ON_THE_SPOT_BYTES = 16 * 1024;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text, JSON, XML, JavaScript and SVG; an answer with no type yet is text (Fastify types strings later). */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|xml|javascript|[\w.-]+\+(?:json|xml))|image\/svg\+xml)/i;

/**
 * Brotli's quality for an answer compressed per request: on the dashboard's 2 KB of JSON, 2 gives 412 bytes
 * in 12 µs, 4 gives 382 in 26 µs and 5 (@fastify/compress's choice here before) 358 in 38 µs.
 */
const brotliOptions = (bytes: number, quality: number): BrotliOptions => ({
  params: { [zlibConstants.BROTLI_PARAM_QUALITY]: quality, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes },
});

/**
 * The answers made per request (the API's JSON, `/sub`, sitemap.xml) compressed as the client accepts: brotli,
 * else gzip. A whole body is compressed in one call, not through a stream: for the API's answers of a few
 * kilobytes a zlib stream cost 160–260 µs each (@fastify/compress), the call 12 µs. Answers already
 * compressed (pages, `/api/plans`, built assets: they set `Content-Encoding`), streams and small ones pass as they are.
 */
export const compressAnswersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding')) return payload;
    const bytes = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (bytes < COMPRESS_FROM_BYTES || !COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? 'text/plain'))) return payload;
    varyOn(reply, 'Accept-Encoding');
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding === 'identity') return payload;
    const compressed = bytes <= ON_THE_SPOT_BYTES
      ? encoding === 'br' ? brotliCompressSync(payload, brotliOptions(bytes, 2)) : gzipSync(payload)
      : encoding === 'br' ? await brotliAsync(payload, brotliOptions(bytes, 4)) : await gzipAsync(payload);
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return compressed;
  });
}, { name: 'compress-answers' });
