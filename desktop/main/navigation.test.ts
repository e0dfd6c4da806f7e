import type { Session, WebContents } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { denyPermissions, lockNavigation } from './navigation.js';
import { FakeWebContents } from './testing/fake-web-contents.js';

const RENDERER_URL = 'file:///opt/lumen/resources/app.asar/out/renderer/index.html';

describe('navigation lock', () => {
  let contents: FakeWebContents;
  const openExternal = vi.fn(async (_url: string) => {});

  beforeEach(() => {
    contents = new FakeWebContents();
    openExternal.mockClear();
    lockNavigation(contents as unknown as WebContents, { rendererUrl: RENDERER_URL, openExternal });
  });

  it.each([['will-navigate' as const], ['will-redirect' as const]])('%s: stays on our renderer (any hash route)', (event) => {
    expect(contents.navigate(event, `${RENDERER_URL}#/accounts`)).toBe(false);
    expect(contents.navigate(event, RENDERER_URL)).toBe(false);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it.each([['will-navigate' as const], ['will-redirect' as const]])('%s to another origin is prevented and opened in the browser when allowed', (event) => {
    expect(contents.navigate(event, 'https://vpn.example.com/dashboard')).toBe(true);
    expect(openExternal).toHaveBeenCalledWith('https://vpn.example.com/dashboard');
  });

  it.each([
    ['another file', 'file:///etc/passwd'],
    ['a file beside ours', 'file:///opt/lumen/resources/app.asar/out/renderer/other.html'],
    ['javascript:', 'javascript:alert(1)'],
    ['plain http', 'http://evil.example/'],
    ['a custom scheme', 'hiddify://import/https://vpn.example.com/sub/x'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
  ])('will-navigate to %s is prevented and not opened anywhere', (_what, url) => {
    expect(contents.navigate('will-navigate', url)).toBe(true);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('prevents a frame inside the page from navigating elsewhere', () => {
    expect(contents.navigate('will-frame-navigate', 'https://evil.example/', false)).toBe(true);
    expect(contents.navigate('will-frame-navigate', `${RENDERER_URL}#/x`, true)).toBe(false);
  });

  it('denies every new window, handing allowed pages to the browser', () => {
    expect(contents.open('https://hiddify.com/download')).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://hiddify.com/download');
    expect(contents.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(contents.open(`${RENDERER_URL}#/accounts`)).toEqual({ action: 'deny' });
    expect(contents.open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledTimes(1);
  });

  it('prevents attaching a <webview>', () => {
    let prevented = false;
    contents.emit('will-attach-webview', { preventDefault: () => (prevented = true) }, {}, {});
    expect(prevented).toBe(true);
  });
});

describe('permissions', () => {
  it('denies every request and check, except clipboard writing on our own page', () => {
    const contents = new FakeWebContents();
    denyPermissions(contents.session as unknown as Session, RENDERER_URL);
    const { permissionRequestHandler: request, permissionCheckHandler: check } = contents.session;
    const ask = (url: string, permission: string) => {
      let granted: boolean | undefined;
      request!({ getURL: () => url }, permission, (answer) => (granted = answer));
      return granted;
    };

    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'fullscreen', 'unknown']) {
      expect(ask(`${RENDERER_URL}#/`, permission)).toBe(false);
      expect(check!({ getURL: () => RENDERER_URL }, permission)).toBe(false);
    }
    expect(ask(`${RENDERER_URL}#/accounts`, 'clipboard-sanitized-write')).toBe(true);
    expect(check!({ getURL: () => RENDERER_URL }, 'clipboard-sanitized-write')).toBe(true);
    expect(ask('https://evil.example/', 'clipboard-sanitized-write')).toBe(false);
    expect(check!(null, 'clipboard-sanitized-write')).toBe(false);
  });
});
