import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { compressOnce, pickEncoding, type Compressed } from '../lib/compression.js';

/** A finished page in the three forms browsers ask for, and its validator. */
export interface CompressedPage extends Compressed {
  identity: Buffer;
  etag: string;
}

interface Slot {
  /** What the page was made from: the same source and config make the same bytes. */
  source: string;
  configKey: string;
  page: Promise<CompressedPage>;
}

async function compress(html: string): Promise<CompressedPage> {
  const identity = Buffer.from(html, 'utf8');
  return { identity, ...(await compressOnce(identity)), etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"` };
}

/**
 * Finished HTML pages, compressed once (brotli 11 and gzip 9) and kept until what they are made from
 * changes: the template or live render (`source`, compared by value) and the public settings
 * (`configKey`). A request then costs a map lookup and a buffer write.
 */
export function createPageCache() {
  const slots = new Map<string, Slot>();

  return {
    /** The page for `key`, made by `fill` only when its source or settings changed. */
    get(key: string, source: string, configKey: string, fill: () => string): Promise<CompressedPage> {
      const slot = slots.get(key);
      if (slot && slot.source === source && slot.configKey === configKey) {
        // Equal text in a new string (a page rendered again, settings read again): keep the new one, so the
        // next requests compare one string with itself instead of every character.
        slot.source = source;
        slot.configKey = configKey;
        return slot.page;
      }
      const page = compress(fill());
      slots.set(key, { source, configKey, page });
      page.catch(() => slots.delete(key));
      return page;
    },
  };
}

/** Sends a cached page in the encoding the browser takes, with its ETag (304 when the browser has it). */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, page: CompressedPage, status: number): FastifyReply {
  reply.status(status).header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding').header('ETag', page.etag).type('text/html; charset=utf-8');
  if (status === 200 && request.headers['if-none-match'] === page.etag) return reply.status(304).send();
  const encoding = pickEncoding(request.headers['accept-encoding']);
  if (encoding === 'identity') return reply.send(page.identity);
  return reply.header('Content-Encoding', encoding).send(encoding === 'br' ? page.br : page.gzip);
}
