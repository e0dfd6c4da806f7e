import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; engines?: { node?: string } };
/** A direct dependency's own package.json (npm installs those at the top of node_modules). */
const manifestOf = (name: string) => JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { engines?: { node?: string } };

describe('dependencies', () => {
  // .npmrc has engine-strict off (Electron and its packaging declare Node 22 for what runs only in the release workflow):
  // this holds what the server runs with to the Node it runs on.
  it('every dependency the server runs with accepts this Node', () => {
    const refused = Object.keys(pkg.dependencies).flatMap((name) => {
      const range = manifestOf(name).engines?.node;
      return range && !semver.satisfies(process.version, range) ? [`${name} wants Node ${range}`] : [];
    });
    expect(refused).toEqual([]);
  });
});
