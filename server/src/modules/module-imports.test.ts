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

describe('the modules of server/src/modules', () => {
  it("import one another only through the other's index.ts, never its files", () => {
    const imports = crossAreaImports();
    expect(imports.length).toBeGreaterThan(50);
    expect(imports.filter(({ to, spec }) => spec !== `${to}/index.js`).map(({ file, spec }) => `${file} imports ${spec}`)).toEqual([]);
  });

  it('import one another without a cycle, types included', () => {
    const graph = new Map<string, Map<string, string>>();
    for (const { from, to, file, spec } of crossAreaImports()) graph.set(from, (graph.get(from) ?? new Map()).set(to, `${file} imports ${spec}`));
    expect(graph.size).toBeGreaterThan(15);
    const found = cycles(graph);
    const why = found.flatMap((path) =>
      path
        .split(' → ')
        .slice(1)
        .map((to, i, rest) => graph.get(i === 0 ? path.split(' → ')[0]! : rest[i - 1]!)!.get(to)!),
    );
    expect(found, why.join('\n')).toEqual([]);
    // (Billing spends the customer's credit; the credit ledger knows a sale only by its record, never billing's code.)
    expect(graph.get('billing')?.has('credit')).toBe(true);
    expect(graph.get('credit')?.has('billing')).toBe(false);
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
