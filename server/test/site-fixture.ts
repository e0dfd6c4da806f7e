import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { CONFIG_SLOT, SITE_MANIFEST_FILE, SITE_TOKENS, type SiteManifest } from '../../shared/site-template.js';

export interface SiteFixture {
  webDir: string;
  siteDir: string;
  remove(): void;
}

const page = (heading: string) =>
  `<!doctype html><html data-site-flags="${SITE_TOKENS.siteFlags}"><head><title>${heading} | ${SITE_TOKENS.brandName}</title>` +
  `<link rel="canonical" href="${SITE_TOKENS.publicUrl}/pricing"></head><body><div id="root"><h1>${heading}</h1>` +
  `<p>Write to ${SITE_TOKENS.supportEmail}</p><p>Servers in ${SITE_TOKENS.locationsClaim} locations</p></div><script type="application/json" id="app-config">${CONFIG_SLOT}</script></body></html>`;

/** A tiny built site: like dist/web + dist/site, with the same tokens and slots. */
export function createSiteFixture(): SiteFixture {
  const root = mkdtempSync(join(tmpdir(), 'vpn-site-'));
  const webDir = join(root, 'web');
  const siteDir = join(root, 'site');
  mkdirSync(join(webDir, 'assets'), { recursive: true });
  mkdirSync(siteDir);
  writeFileSync(join(webDir, 'index.html'), page('RAW TEMPLATE'));
  writeFileSync(join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(join(webDir, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.log(1)'));
  mkdirSync(join(webDir, '.vite'));
  writeFileSync(join(webDir, '.vite', 'manifest.json'), '{"index.html":{"file":"assets/app-abc123.js","note":"RAW TEMPLATE"}}');
  writeFileSync(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const manifest: SiteManifest = {
    pages: [
      { path: '/', file: 'index.html' },
      { path: '/pricing', file: 'pricing.html' },
      { path: '/features/threat-protection', file: 'threat.html' },
    ],
    appPaths: ['/dashboard', '/admin'],
    shell: 'app.html',
    notFound: '404.html',
  };
  writeFileSync(join(siteDir, 'index.html'), page('Home'));
  writeFileSync(join(siteDir, 'pricing.html'), page('Pricing'));
  writeFileSync(join(siteDir, 'threat.html'), page('Advanced Threat Protection'));
  writeFileSync(
    join(siteDir, 'app.html'),
    `<!doctype html><title>${SITE_TOKENS.brandName}</title><div id="root"></div><script type="application/json" id="app-config">${CONFIG_SLOT}</script>`,
  );
  writeFileSync(join(siteDir, '404.html'), page('Page Not Found'));
  writeFileSync(join(siteDir, SITE_MANIFEST_FILE), JSON.stringify(manifest));
  return { webDir, siteDir, remove: () => rmSync(root, { recursive: true, force: true }) };
}
