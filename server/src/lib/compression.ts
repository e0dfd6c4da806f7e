import { LruMap } from './lru-map.js';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Below this an answer is sent as it is: a packet either way. */
export const COMPRESS_FROM_BYTES = 1024;

/** Bytes in the two encodings browsers ask for. */
export interface Compressed {
  br: Buffer;
  gzip: Buffer;
}

/** Bytes compressed as tightly as each encoding goes (brotli 11, gzip 9), off the event loop: for what is sent many times. */
export async function compressOnce(bytes: Buffer): Promise<Compressed> {
  const [br, gz] = await Promise.all([
    brotli(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }),
    gzipAsync(bytes, { level: 9 }),
  ]);
  return { br, gzip: gz };
}

type Encoding = 'br' | 'gzip' | 'identity';

/** Browsers send a handful of distinct `Accept-Encoding` headers: each is parsed once. */
const picked = new LruMap<string, Encoding>(64);

/** The best encoding the request accepts of br, gzip and none (a `q=0` refuses one). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  if (!acceptEncoding) return 'identity';
  let encoding = picked.peek(acceptEncoding);
  if (encoding === undefined) {
    encoding = parseAcceptEncoding(acceptEncoding);
    picked.set(acceptEncoding, encoding);
  }
  return encoding;
}

function parseAcceptEncoding(acceptEncoding: string): Encoding {
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
