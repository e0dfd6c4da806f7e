// self time (µs/req) of functions whose stack includes marker
import { readFileSync } from 'node:fs';
const [file, n, marker] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((x) => [x.id, x]));
const parent = new Map(); for (const x of p.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
const label = (x) => `${x.callFrame.functionName || '(anon)'} ${x.callFrame.url.split('/').slice(-2).join('/')}:${x.callFrame.lineNumber + 1}`;
const m = new Map();
p.samples.forEach((id, i) => { const dt = p.timeDeltas[i + 1] ?? 0; let c = id, hit = false; while (c !== undefined) { if (label(byId.get(c)).includes(marker)) { hit = true; break; } c = parent.get(c); } if (hit) { const l = label(byId.get(id)); m.set(l, (m.get(l) ?? 0) + dt); } });
for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / n).toFixed(2).padStart(7), k);
