// usage: prof-under.mjs profile fnName [depth] — breakdown of time under frames named fnName (children totals), plus self-time top within.
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const target = process.argv[3];
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const counts = new Map(); for (const s of p.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
const name = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
const tot = (n) => (counts.get(n.id) ?? 0) + (n.children ?? []).reduce((a, c) => a + tot(byId.get(c)), 0);
const self = new Map(); let all = 0;
function walk(n) { const c = counts.get(n.id) ?? 0; all += c; self.set(name(n), (self.get(name(n)) ?? 0) + c); for (const ch of n.children ?? []) walk(byId.get(ch)); }
for (const n of p.nodes) if (n.callFrame.functionName === target) walk(n);
const totalSamples = p.samples.length;
console.log(`under ${target}: ${all} samples of ${totalSamples}`);
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[4] ?? 30)).map(([k, v]) => `${(100 * v / all).toFixed(1)}% ${k}`).join('\n'));
