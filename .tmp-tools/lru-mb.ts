import { LruMap } from '../server/src/lib/lru-map.js';
import { randomBytes } from 'node:crypto';
const tokens = Array.from({ length: 200_000 }, () => randomBytes(18).toString('base64url'));
for (const cap of [10_000, 1000]) {
  const m = new LruMap<string, number>(cap);
  for (let i = 0; i < cap; i++) m.set(tokens[i]!, i);
  const t = process.hrtime.bigint();
  for (let i = cap; i < 200_000; i++) { m.peek(tokens[i]!); m.set(tokens[i]!, i); }
  console.log(cap, 'ns per set with eviction', Number(process.hrtime.bigint() - t) / (200_000 - cap));
}
const plain = new Map<string, number>();
const t = process.hrtime.bigint();
for (let i = 0; i < 200_000; i++) { plain.set(tokens[i]!, i); if (plain.size > 10000) { const k = plain.keys().next().value!; plain.delete(k); } }
console.log('plain map fifo ns', Number(process.hrtime.bigint() - t) / 200_000);
