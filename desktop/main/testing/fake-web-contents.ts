import { EventEmitter } from 'node:events';
import type { HandlerDetails, WindowOpenHandlerResponse } from 'electron';

type PermissionRequestHandler = (contents: { getURL(): string }, permission: string, callback: (granted: boolean) => void) => void;
type PermissionCheckHandler = (contents: { getURL(): string } | null, permission: string) => boolean;

/** Enough of Electron's WebContents (and its session) for the window and navigation tests. */
export class FakeWebContents extends EventEmitter {
  id = 7;
  url = '';
  sent: Array<[string, ...unknown[]]> = [];
  windowOpenHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | null = null;
  session = {
    permissionRequestHandler: null as PermissionRequestHandler | null,
    permissionCheckHandler: null as PermissionCheckHandler | null,
    setPermissionRequestHandler(handler: PermissionRequestHandler) {
      this.permissionRequestHandler = handler;
    },
    setPermissionCheckHandler(handler: PermissionCheckHandler) {
      this.permissionCheckHandler = handler;
    },
  };

  getURL() {
    return this.url;
  }

  send(channel: string, ...args: unknown[]) {
    this.sent.push([channel, ...args]);
  }

  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse) {
    this.windowOpenHandler = handler;
  }

  /** Emits a navigation-style event as Electron does; returns whether it was prevented. */
  navigate(event: 'will-navigate' | 'will-redirect' | 'will-frame-navigate', url: string, isMainFrame = true): boolean {
    let prevented = false;
    this.emit(event, { url, isMainFrame, preventDefault: () => (prevented = true) });
    return prevented;
  }

  /** `window.open(url)` from the page: the handler's answer. */
  open(url: string): WindowOpenHandlerResponse | undefined {
    return this.windowOpenHandler?.({ url, frameName: '', features: '', disposition: 'new-window', referrer: { url: '', policy: 'default' } });
  }
}
