/**
 * Writes brotli (.br) and gzip (.gz) copies of the built web assets next to them, at the highest
 * levels, once at build time; the server sends them to browsers that accept them (preCompressed).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const WEB_DIR = join(import.meta.dirname, '..', 'dist', 'web');
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json', '.txt', '.map']);

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let count = 0;
for (const path of files(WEB_DIR)) {
  if (!COMPRESSIBLE.has(extname(path))) continue;
  const content = readFileSync(path);
  writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  count += 1;
}
console.log(`compressed ${count} web assets (.br, .gz)`);
