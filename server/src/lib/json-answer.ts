import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COMPRESS_FROM_BYTES, compressOnce, pickEncoding, type Compressed } from './compression.js';

/** A JSON answer serialised (and, when large, compressed) once and sent as it is to every request until what it shows changes. */
export interface JsonAnswer {
  body: string;
  etag: string;
  /** br and gzip of `body`, made in the background as the answer is made; none for a small answer. */
  compressed?: Promise<Compressed>;
}

export function toJsonAnswer(value: unknown): JsonAnswer {
  const body = JSON.stringify(value);
  const answer: JsonAnswer = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
  if (Buffer.byteLength(body) >= COMPRESS_FROM_BYTES) {
    answer.compressed = compressOnce(Buffer.from(body, 'utf8'));
    answer.compressed.catch(() => undefined); // a failure is seen (and the answer sent whole) where it is awaited
  }
  return answer;
}

/**
 * Sends the ready answer, or 304 to a client that already holds it; compressed as the client accepts,
 * from the bytes made once (compress-answers.ts leaves an answer with a Content-Encoding as it is). `no-cache` (not
 * the API's usual `no-store`) lets a browser keep it and ask again with its ETag: the answer is the same
 * for everyone.
 */
export async function sendJsonAnswer(request: FastifyRequest, reply: FastifyReply, answer: JsonAnswer): Promise<FastifyReply> {
  reply.header('etag', answer.etag).header('cache-control', 'no-cache').header('vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === answer.etag) return reply.status(304).send();
  reply.type('application/json; charset=utf-8');
  const encoding = answer.compressed ? pickEncoding(request.headers['accept-encoding']) : 'identity';
  const compressed = encoding === 'identity' ? undefined : await answer.compressed!.catch(() => undefined);
  if (!compressed || encoding === 'identity') return reply.send(answer.body);
  return reply.header('content-encoding', encoding).send(compressed[encoding]);
}
