import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A finished page in the three forms browsers ask for, and its validator. */
export interface CompressedPage {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
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
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipAsync(identity, { level: 9 }),
  ]);
  return { identity, br, gzip: gz, etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"` };
}

/** The best encoding the request accepts of br, gzip and none (a `q=0` refuses one). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | 'identity' {
  if (!acceptEncoding) return 'identity';
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
    if (name) accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
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
      if (slot && slot.source === source && slot.configKey === configKey) return slot.page;
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
