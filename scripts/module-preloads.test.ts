import type { Manifest } from 'vite';
import { describe, expect, it } from 'vitest';
import { modulePreloads } from './module-preloads.js';

/** A build manifest in miniature: the entry, the landing page, two languages' catalogue tables and catalogues. */
const manifest: Manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_vendor-1.js', '_catalogs-1.js'] },
  '_vendor-1.js': { file: 'assets/vendor-1.js' },
  '_catalogs-1.js': { file: 'assets/catalogs-1.js', imports: ['_preload-helper-1.js'] },
  '_preload-helper-1.js': { file: 'assets/preload-helper-1.js' },
  'src/pages/LandingPage.tsx': { file: 'assets/LandingPage-1.js', isDynamicEntry: true, imports: ['index.html', '_page-shared-1.js'] },
  '_page-shared-1.js': { file: 'assets/page-shared-1.js', imports: ['index.html'] },
  '../virtual:catalogs/en': { file: 'assets/en-1.js', isDynamicEntry: true, imports: ['_preload-helper-1.js'] },
  '../virtual:catalogs/ru': { file: 'assets/ru-1.js', isDynamicEntry: true, imports: ['_preload-helper-1.js'] },
  '../virtual:catalog/en/common': { file: 'assets/common-en.js', isDynamicEntry: true },
  '../virtual:catalog/ru/common': { file: 'assets/common-ru.js', isDynamicEntry: true },
  '../virtual:catalog/en/landing': { file: 'assets/landing-en.js', isDynamicEntry: true },
  '../virtual:catalog/ru/landing': { file: 'assets/landing-ru.js', isDynamicEntry: true },
  '../virtual:catalog/en/admin': { file: 'assets/admin-en.js', isDynamicEntry: true },
};

describe('the modules a prerendered page preloads', () => {
  const preloads = modulePreloads(manifest);

  it("are the entry's imports, the page's chunk with its imports, and its catalogues with its language's table of them", () => {
    expect(preloads({ module: 'src/pages/LandingPage.tsx', locale: 'ru', namespaces: ['common', 'landing'] }).sort()).toEqual([
      '/assets/LandingPage-1.js',
      '/assets/catalogs-1.js',
      '/assets/common-ru.js',
      '/assets/landing-ru.js',
      '/assets/page-shared-1.js',
      '/assets/preload-helper-1.js',
      '/assets/ru-1.js',
      '/assets/vendor-1.js',
    ]);
  });

  it("name no other language's catalogue table", () => {
    const paths = preloads({ locale: 'en', namespaces: ['common'] });
    expect(paths).toContain('/assets/en-1.js');
    expect(paths).not.toContain('/assets/ru-1.js');
  });

  it('take the English catalogue where the language lacks one, as the client does', () => {
    expect(preloads({ locale: 'ru', namespaces: ['admin'] })).toContain('/assets/admin-en.js');
  });
});
