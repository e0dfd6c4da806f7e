import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A JSON answer serialised once and sent as it is to every request until what it shows changes. */
export interface JsonAnswer {
  body: string;
  etag: string;
}

export function toJsonAnswer(value: unknown): JsonAnswer {
  const body = JSON.stringify(value);
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/**
 * Sends the ready answer, or 304 to a client that already holds it. `no-cache` (not the API's usual
 * `no-store`) lets a browser keep it and ask again with its ETag: the answer is the same for everyone.
 */
export function sendJsonAnswer(request: FastifyRequest, reply: FastifyReply, answer: JsonAnswer): FastifyReply {
  reply.header('etag', answer.etag).header('cache-control', 'no-cache');
  if (request.headers['if-none-match'] === answer.etag) return reply.status(304).send();
  return reply.type('application/json; charset=utf-8').send(answer.body);
}
