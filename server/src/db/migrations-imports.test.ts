import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = new URL('./migrations', import.meta.url).pathname;

/**
 * A migration runs on installs years after it was written: it never reads the app's live code (seed texts,
 * services, repositories), which may have changed since, but only knex, Node, other migrations (frozen copies
 * beside them) and the database's own dialect helper.
 */
const ALLOWED = [/^knex$/, /^node:/, /^\.\/[^/]+\.js$/, /^\.\.\/knex\.js$/];

describe('migrations', () => {
  it('import no live code', () => {
    const imports = readdirSync(DIR)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
      .flatMap((name) => [...readFileSync(join(DIR, name), 'utf8').matchAll(/^import[^;]*? from '([^']+)';/gms)].map((match) => ({ name, from: match[1]! })));
    expect(imports.length).toBeGreaterThan(40);
    expect(imports.filter(({ from }) => !ALLOWED.some((allowed) => allowed.test(from)))).toEqual([]);
  });
});
