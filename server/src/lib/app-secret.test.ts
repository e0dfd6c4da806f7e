import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { resolveAppSecret } from './app-secret.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('the generated app secret', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('is written once, mode 0600, into a data folder it creates with mode 0700, and read back after', () => {
    const root = mkdtempSync(join(tmpdir(), 'vpn-secret-'));
    dirs.push(root);
    const dataDir = join(root, 'data');
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir });
    const secret = resolveAppSecret(config);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(join(dataDir, 'app-secret'), 'utf8').trim()).toBe(secret);
    expect(modeOf(join(dataDir, 'app-secret'))).toBe('600');
    expect(modeOf(dataDir)).toBe('700');
    expect(resolveAppSecret(config)).toBe(secret);
  });
});
