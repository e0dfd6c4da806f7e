import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERR, ERROR_CODES, ERRORS, statusesOf, type ErrorCode } from '../../shared/errors.js';

const ROOT = new URL('../..', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const isCode = (code: string): code is ErrorCode => (ERROR_CODES as string[]).includes(code);

describe('the error catalogue (shared/errors.ts)', () => {
  it('holds every code the server throws, with the status it is thrown with', () => {
    const thrown: Array<{ file: string; code: string; status: string }> = [];
    for (const file of sources('server/src')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const match of text.matchAll(/AppError\(\s*([^,]+?),\s*'([a-z_]+)'/g)) thrown.push({ file, status: match[1]!.trim(), code: match[2]! });
      for (const match of text.matchAll(/\bcode: '([a-z_]+)'/g)) thrown.push({ file, status: '', code: match[1]! });
    }
    expect(thrown.length).toBeGreaterThan(100);
    for (const { file, code, status } of thrown) {
      expect(isCode(code), `${file}: ${code} is not in the catalogue`).toBe(true);
      // A literal status must be one the catalogue gives the code; a computed one is checked by the compiler's type only.
      if (/^\d+$/.test(status)) expect(statusesOf(code as ErrorCode), `${file}: ${code} thrown with ${status}`).toContain(Number(status));
    }
  });

  it('the web app branches on the catalogue’s constants, not on raw code strings', () => {
    for (const file of sources('web/src')) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      expect(text.match(/\.code [!=]== '[a-z_]+'/g) ?? [], file).toEqual([]);
    }
    expect(ERR.trial_used).toBe('trial_used');
  });

  it('gives each code a client-error or server-error status and says what it means', () => {
    for (const code of ERROR_CODES) {
      for (const status of statusesOf(code)) expect(status >= 400 && status < 600, code).toBe(true);
      expect(ERRORS[code].meaning.length, code).toBeGreaterThan(10);
    }
  });
});
