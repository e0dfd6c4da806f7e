import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isRendererUrl, resolveRendererLocation } from './renderer-location.js';

const MAIN_DIR = join('/opt', 'Lumen VPN', 'resources', 'app.asar', 'out', 'main');
const BUILT = pathToFileURL(join(MAIN_DIR, '..', 'renderer', 'index.html')).href;

describe('renderer location', () => {
  it('is out/renderer/index.html beside the main bundle, with the CommonJS preload', () => {
    expect(resolveRendererLocation(MAIN_DIR, { isPackaged: true })).toEqual({
      rendererUrl: 'file:///opt/Lumen%20VPN/resources/app.asar/out/renderer/index.html',
      preloadPath: join(MAIN_DIR, '..', 'preload', 'index.cjs'),
    });
  });

  it('uses the dev server only in an unpackaged app and only on this machine', () => {
    expect(resolveRendererLocation(MAIN_DIR, { isPackaged: false, devServerUrl: 'http://localhost:5173/' }).rendererUrl).toBe('http://localhost:5173/');
    expect(resolveRendererLocation(MAIN_DIR, { isPackaged: true, devServerUrl: 'http://localhost:5173/' }).rendererUrl).toBe(BUILT);
    expect(resolveRendererLocation(MAIN_DIR, { isPackaged: false, devServerUrl: 'https://evil.example/' }).rendererUrl).toBe(BUILT);
    expect(resolveRendererLocation(MAIN_DIR, { isPackaged: false, devServerUrl: 'file:///tmp/evil.html' }).rendererUrl).toBe(BUILT);
  });

  it.each([
    [`${BUILT}#/accounts`, true],
    [`${BUILT}?x=1#/`, true],
    ['file:///opt/Lumen%20VPN/resources/app.asar/out/renderer/other.html', false],
    ['file:///etc/passwd', false],
    ['https://opt/Lumen%20VPN/resources/app.asar/out/renderer/index.html', false],
    ['not a url', false],
  ])('%s is ours: %s', (url, ours) => {
    expect(isRendererUrl(url, BUILT)).toBe(ours);
  });
});
