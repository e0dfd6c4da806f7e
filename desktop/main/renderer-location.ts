/**
 * Where our renderer lives: `out/renderer/index.html` beside the main bundle (a file:// URL), or the
 * electron-vite dev server (`ELECTRON_RENDERER_URL`, honoured only in an unpackaged app and only on
 * this machine, so an environment variable cannot point a released app at a remote page). The window
 * loads it, the navigation lock keeps the window on it, and IPC accepts calls only from it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface RendererLocation {
  /** The URL the window loads. */
  rendererUrl: string;
  /** The sandboxed CommonJS preload. */
  preloadPath: string;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `mainDir` is the folder of the built main bundle (`out/main`). */
export function resolveRendererLocation(mainDir: string, options: { isPackaged: boolean; devServerUrl?: string }): RendererLocation {
  const preloadPath = join(mainDir, '..', 'preload', 'index.cjs');
  const devServer = options.isPackaged ? null : loopbackHttpUrl(options.devServerUrl);
  const rendererUrl = devServer ?? pathToFileURL(join(mainDir, '..', 'renderer', 'index.html')).href;
  return { rendererUrl, preloadPath };
}

/**
 * Whether `candidate` is a page of our renderer: the same file (any hash or query: the screens use a
 * hash router), or the same dev-server origin.
 */
export function isRendererUrl(candidate: string, rendererUrl: string): boolean {
  const page = parseUrl(candidate);
  const ours = parseUrl(rendererUrl);
  if (!page || !ours || page.protocol !== ours.protocol) return false;
  if (ours.protocol === 'file:') return page.host === ours.host && page.pathname === ours.pathname;
  return page.origin === ours.origin;
}

function loopbackHttpUrl(value: string | undefined): string | null {
  const url = value ? parseUrl(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !LOOPBACK_HOSTS.has(url.hostname)) return null;
  return url.href;
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
