// usage: prof-window.mjs profile markerFn [top] — self time in 100 ms windows where markerFn is on some stack
import { readFileSync } from 'node:fs';
const p = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const marker = process.argv[3];
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`;
const hasMarker = new Map();
const onStack = (id) => { if (hasMarker.has(id)) return hasMarker.get(id); const n = byId.get(id); const r = n.callFrame.functionName === marker || (parent.has(id) && onStack(parent.get(id))); hasMarker.set(id, r); return r; };
let t = p.startTime; const times = p.timeDeltas.map((d) => (t += d));
const marked = new Set(); p.samples.forEach((s, i) => { if (onStack(s)) marked.add(Math.floor(times[i] / 100000)); });
const self = new Map(); let all = 0, idle = 0;
p.samples.forEach((s, i) => { if (!marked.has(Math.floor(times[i] / 100000))) return; const nm = name(byId.get(s)); if (nm.startsWith('(idle)')) { idle++; return; } all++; self.set(nm, (self.get(nm) ?? 0) + 1); });
console.log(`windows ${marked.size}, busy samples ${all}, idle ${idle} (${(100 * idle / (all + idle)).toFixed(1)}% idle)`);
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.argv[4] ?? 40)).map(([k, v]) => `${(100 * v / all).toFixed(1)}% ${k}`).join('\n'));
