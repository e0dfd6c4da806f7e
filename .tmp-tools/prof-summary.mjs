import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map(); const total = new Map();
const counts = new Map();
for (const s of p.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
let all = 0;
const name = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
for (const [id, c] of counts) {
  all += c;
  const n = byId.get(id); self.set(name(n), (self.get(name(n)) ?? 0) + c);
  const seen = new Set(); let cur = id;
  while (cur !== undefined) { const nm = name(byId.get(cur)); if (!seen.has(nm)) { seen.add(nm); total.set(nm, (total.get(nm) ?? 0) + c); } cur = parent.get(cur); }
}
const idle = self.get('(idle) :-1') ?? 0;
console.log('samples', all, 'idle', idle);
const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([n, c]) => `${(100 * c / (all - idle)).toFixed(1)}% ${n}`).join('\n');
console.log('--- self'); console.log(top(self, Number(process.argv[3] ?? 30)));
console.log('--- total'); console.log(top(total, Number(process.argv[4] ?? 60)));
