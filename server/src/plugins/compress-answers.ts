import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { COMPRESS_FROM_BYTES, compressAnswer, pickEncoding } from '../lib/compression.js';
import { varyOn } from '../lib/vary.js';

/** Text, JSON, XML, JavaScript and SVG; an answer with no type yet is text (Fastify types strings later). */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|xml|javascript|[\w.-]+\+(?:json|xml))|image\/svg\+xml)/i;

/**
 * The answers made per request (the API's JSON, `/sub`, sitemap.xml) compressed as the client accepts: brotli,
 * else gzip. A whole body is compressed in one call (lib/compression.ts), not through a stream: for the API's
 * answers of a few kilobytes a zlib stream cost 160–260 µs each (@fastify/compress), the call 12 µs. Answers
 * already compressed (pages, `/api/plans`, kept admin answers, built assets: they set `Content-Encoding`),
 * streams and small ones pass as they are.
 */
export const compressAnswersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      if (reply.hasHeader('content-encoding')) return payload;
      const bytes = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
      if (bytes < COMPRESS_FROM_BYTES || !COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? 'text/plain'))) return payload;
      varyOn(reply, 'Accept-Encoding');
      const encoding = pickEncoding(request.headers['accept-encoding']);
      if (encoding === 'identity') return payload;
      const compressed = await compressAnswer(payload, encoding, bytes);
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      return compressed;
    });
  },
  { name: 'compress-answers' },
);
