import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogs } from './vite-plugin-catalogs.js';

/** The plugin's hooks, called as Vite would for the module `id` (on the real catalogues unless `dir` is given). */
function load(id: string, dir?: string): string {
  const plugin = catalogs(dir);
  const resolved = (plugin.resolveId as (source: string) => string | null)(id);
  expect(resolved, `${id} is the plugin's`).toBe(`\0${id}`);
  return (plugin.load as (this: unknown, id: string) => string).call({ addWatchFile: () => undefined }, resolved!);
}

describe('the catalogue loaders (virtual:catalogs)', () => {
  it('are one table per language, each loaded on its own', () => {
    const tables = load('virtual:catalogs');
    for (const locale of ['en', 'ru', 'fa', 'zh-CN']) expect(tables).toContain(`"${locale}": () => import("virtual:catalogs/${locale}")`);
    expect(tables).not.toContain('virtual:catalog/');
  });

  it("name only their own language's catalogues", () => {
    const russian = load('virtual:catalogs/ru');
    expect(russian).toContain('"common": () => import("virtual:catalog/ru/common")');
    expect(russian).toContain('"admin": () => import("virtual:catalog/ru/admin")');
    expect(russian).not.toMatch(/virtual:catalog\/(en|fa|zh-CN)\//);
  });

  it('take the English catalogue of a namespace the language has no file for (as the admin screens once were in Persian)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalogs-'));
    for (const file of ['en/landing', 'en/admin', 'fa/landing']) {
      mkdirSync(join(dir, file.split('/')[0]!), { recursive: true });
      writeFileSync(join(dir, `${file}.json`), '{}');
    }
    const persian = load('virtual:catalogs/fa', dir);
    expect(persian).toContain('"landing": () => import("virtual:catalog/fa/landing")');
    expect(persian).toContain('"admin": () => import("virtual:catalog/en/admin")');
  });
});
