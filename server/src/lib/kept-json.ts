import type { FastifyReply, FastifyRequest } from 'fastify';
import { COMPRESS_FROM_BYTES, compressAnswer, pickEncoding } from './compression.js';
import { varyOn } from './vary.js';

type Encoding = 'br' | 'gzip';

/**
 * A JSON answer that is sent many times (kept until the next commit: the overview, pages of the users list)
 * with its compressed forms, each made the first time a client asks for it: the admin panel in a browser asks
 * with `accept-encoding`, and compressing the same answer again on every request was most of its cost.
 */
export class KeptJson {
  readonly bytes: number;
  private readonly encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(readonly body: string) {
    this.bytes = Buffer.byteLength(body);
  }

  encode(encoding: Encoding): Promise<Buffer> {
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      bytes = compressAnswer(this.body, encoding, this.bytes);
      this.encoded.set(encoding, bytes);
      bytes.catch(() => this.encoded.delete(encoding));
    }
    return bytes;
  }
}

/** Sends the answer as JSON, in the encoding the client accepts (compress-answers.ts leaves it as it is). */
export async function sendKeptJson(request: FastifyRequest, reply: FastifyReply, answer: KeptJson): Promise<FastifyReply> {
  reply.type('application/json; charset=utf-8');
  if (answer.bytes < COMPRESS_FROM_BYTES) return reply.send(answer.body);
  varyOn(reply, 'Accept-Encoding');
  const encoding = pickEncoding(request.headers['accept-encoding']);
  if (encoding === 'identity') return reply.send(answer.body);
  return reply.header('content-encoding', encoding).send(await answer.encode(encoding));
}
