/**
 * The window stays on our renderer: navigations and redirects elsewhere are stopped (an allowed web
 * page opens in the system browser instead), every new window is denied (allowed pages go to the
 * browser), `<webview>` cannot be attached, and web permissions (camera, notifications…) are refused.
 */
import type { Session, WebContents } from 'electron';
import { allowedExternalUrl } from './external-links.js';
import { isRendererUrl } from './renderer-location.js';

export interface NavigationLockOptions {
  rendererUrl: string;
  openExternal: (url: string) => Promise<void>;
}

/** Permissions the renderer gets, and only on its own page: writing to the clipboard (the copy buttons). */
const GRANTED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

export function lockNavigation(contents: WebContents, options: NavigationLockOptions): void {
  const { rendererUrl } = options;
  const openInBrowser = (url: string) => {
    const allowed = allowedExternalUrl(url);
    if (allowed) options.openExternal(allowed).catch(() => {});
  };
  const keepOnRenderer = (event: { url: string; preventDefault(): void }) => {
    if (isRendererUrl(event.url, rendererUrl)) return;
    event.preventDefault();
    openInBrowser(event.url);
  };

  contents.on('will-navigate', (event) => keepOnRenderer(event));
  contents.on('will-redirect', (event) => keepOnRenderer(event));
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !isRendererUrl(event.url, rendererUrl)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Refuses every permission request and check, except the few above for our own page. */
export function denyPermissions(session: Session, rendererUrl: string): void {
  const allowed = (permission: string, url: string) => GRANTED_PERMISSIONS.has(permission) && isRendererUrl(url, rendererUrl);
  session.setPermissionRequestHandler((contents, permission, callback) => callback(allowed(permission, contents.getURL())));
  session.setPermissionCheckHandler((contents, permission) => contents !== null && allowed(permission, contents.getURL()));
}
