import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = new URL('.', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The area (`billing`, `wallet`, …) a file of server/src/modules belongs to, or null for a file at the top. */
const areaOf = (file: string) => {
  const [area, ...rest] = relative(MODULES, file).split('/');
  return rest.length > 0 && area !== '..' ? area! : null;
};

/**
 * Which areas each area imports at run time: `import type` and imports of types only are erased by the compiler
 * and tie nothing together when the server runs.
 */
function runtimeImports(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sources(MODULES)) {
    const from = areaOf(file);
    if (!from) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^(?:import|export)(\s+type)?\s([^;]*?)\sfrom '(\.[^']+)';/gms)) {
      const [, typeOnly, names, spec] = match;
      if (typeOnly || /^\{(\s*type\s+[\w$]+(\s+as\s+[\w$]+)?\s*,?)+\s*\}$/.test(names!.trim())) continue;
      const to = areaOf(normalize(join(dirname(file), spec!)));
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      edges.set(to, `${relative(MODULES, file)} imports ${spec}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** Every cycle's path, found by a depth-first walk (each reported once, from its smallest area). */
function cycles(graph: Map<string, Map<string, string>>): string[] {
  const found = new Set<string>();
  const walk = (start: string, at: string, path: string[]) => {
    for (const next of graph.get(at)?.keys() ?? []) {
      if (next === start) found.add([...path, start].join(' → '));
      else if (!path.includes(next) && next > start) walk(start, next, [...path, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) walk(start, start, [start]);
  return [...found];
}

/** Every import of one area's file by another area's, as `file imports spec` (type-only ones too). */
function crossAreaImports(): { from: string; to: string; file: string; spec: string }[] {
  return sources(MODULES).flatMap((file) => {
    const from = areaOf(file);
    if (!from) return [];
    return [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)(?:\s+type)?\s[^;]*?\sfrom '(\.[^']+)';/gms)].flatMap(([, spec]) => {
      const target = normalize(join(dirname(file), spec!));
      const to = areaOf(target);
      return to && to !== from ? [{ from, to, file: relative(MODULES, file), spec: relative(MODULES, target) }] : [];
    });
  });
}

/**
 * The areas whose types still refer to one another in a ring (each reaches the others through `import type`): money
 * moves between billing, the wallet and referrals both ways, and each manifest names the chain of modules built
 * before it. Breaking the ring is left to a later slice; this list may only shrink.
 */
const TYPE_RING = ['accounts', 'auth', 'billing', 'plans', 'promo-codes', 'referrals', 'servers', 'settings', 'users', 'wallet'];

/** The areas that reach one another through imports of any kind (a ring of two or more). */
function areasInARing(): string[] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of crossAreaImports()) graph.set(from, (graph.get(from) ?? new Set()).add(to));
  const reach = (start: string) => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      for (const next of graph.get(stack.pop()!) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(next);
      }
    }
    return seen;
  };
  return [...graph.keys()].filter((area) => [...reach(area)].some((other) => other !== area && reach(other).has(area))).sort();
}

describe('the modules of server/src/modules', () => {
  it('no area joins the ring of areas whose types refer to one another', () => {
    const ring = areasInARing();
    expect(
      ring.filter((area) => !TYPE_RING.includes(area)),
      'areas newly in the ring',
    ).toEqual([]);
    expect(
      TYPE_RING.filter((area) => !ring.includes(area)),
      'areas out of the ring now: take them off TYPE_RING',
    ).toEqual([]);
  });

  it("import one another only through the other's index.ts, never its files", () => {
    const imports = crossAreaImports();
    expect(imports.length).toBeGreaterThan(50);
    expect(imports.filter(({ to, spec }) => spec !== `${to}/index.js`).map(({ file, spec }) => `${file} imports ${spec}`)).toEqual([]);
  });

  it('import one another without a cycle at run time', () => {
    const graph = runtimeImports();
    expect(graph.size).toBeGreaterThan(10);
    // (The walk reads real imports: billing spends the wallet's credit; the wallet's own routes use billing's top-ups only by type.)
    expect(graph.get('billing')?.has('wallet')).toBe(true);
    expect(graph.get('wallet')?.has('billing')).toBe(false);
    expect(cycles(graph)).toEqual([]);
  });

  it('a cycle is found when there is one', () => {
    const graph = new Map([
      ['a', new Map([['b', '']])],
      ['b', new Map([['c', '']])],
      ['c', new Map([['a', '']])],
    ]);
    expect(cycles(graph)).toEqual(['a → b → c → a']);
  });
});
