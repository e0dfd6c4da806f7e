/**
 * Which VPN clients are installed, found by their URL schemes (clients.md, "Detecting installed
 * clients"), and opening a client's deep link. Electron's `app.getApplicationNameForProtocol` answers
 * on every OS (Windows registry, macOS LaunchServices, Linux .desktop files); on Linux, when it is
 * empty, `xdg-mime query default x-scheme-handler/<scheme>` is asked too. A link is only ever opened
 * when its scheme is one of the known clients' and has a handler right now (an unhandled scheme makes
 * Windows show a "find an app" dialog).
 */
import { execFile } from 'node:child_process';
import { VPN_CLIENT_APPS, type VpnClientApp } from '../../shared/deep-links.js';
import type { Platform } from '../../shared/platforms.js';

/** `app.getApplicationNameForProtocol`: the handler's name, or '' when there is none. */
export type ProtocolLookup = (url: string) => string;
/** Runs a program (never through a shell) and resolves its standard output. */
export type CommandRunner = (file: string, args: readonly string[], options: { timeoutMs: number }) => Promise<string>;

export interface ClientDetectorOptions {
  lookupProtocol: ProtocolLookup;
  platform?: NodeJS.Platform;
  runCommand?: CommandRunner;
  /** How long a detection result is reused. */
  cacheMs?: number;
  now?: () => number;
}

export interface ClientDetector {
  /** Ids (from `VPN_CLIENT_APPS`) of the clients for this OS whose scheme has a handler. */
  detectClients(): Promise<string[]>;
  /** Whether one of this OS's clients owns `scheme` and it has a handler right now (not cached). */
  canOpenScheme(scheme: string): Promise<boolean>;
}

export const MAX_DEEP_LINK_LENGTH = 8192;
const XDG_MIME_TIMEOUT_MS = 2000;
const DEFAULT_CACHE_MS = 10_000;

const DESKTOP_PLATFORMS: Partial<Record<NodeJS.Platform, Platform>> = { darwin: 'macos', win32: 'windows', linux: 'linux' };

/** A client's URL scheme: what its link has before `://`. */
export function schemeOf(app: VpnClientApp): string {
  return app.link('https://example.invalid/sub', 'x').split('://', 1)[0]!.toLowerCase();
}

/** The clients that run on `platform` (a desktop OS), each with its scheme. */
export function clientsFor(platform: NodeJS.Platform): Array<{ id: string; scheme: string }> {
  const desktop = DESKTOP_PLATFORMS[platform];
  if (!desktop) return [];
  return VPN_CLIENT_APPS.filter((app) => app.platforms.includes(desktop)).map((app) => ({ id: app.id, scheme: schemeOf(app) }));
}

export const runCommand: CommandRunner = (file, args, { timeoutMs }) =>
  new Promise((resolve, reject) => {
    execFile(file, [...args], { timeout: timeoutMs, encoding: 'utf8', windowsHide: true }, (error, stdout) => {
      if (error) reject(new Error(`${file} failed: ${error.message}`, { cause: error }));
      else resolve(stdout);
    });
  });

export function createClientDetector(options: ClientDetectorOptions): ClientDetector {
  const { lookupProtocol, platform = process.platform, runCommand: run = runCommand } = options;
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  const now = options.now ?? Date.now;
  const clients = clientsFor(platform);
  const schemes = new Set(clients.map((client) => client.scheme));
  let cached: { at: number; ids: Promise<string[]> } | null = null;

  async function hasHandler(scheme: string): Promise<boolean> {
    let name: string;
    try {
      name = lookupProtocol(`${scheme}://`);
    } catch {
      name = '';
    }
    if (name.trim() !== '') return true;
    if (platform !== 'linux') return false;
    const desktopFile = await run('xdg-mime', ['query', 'default', `x-scheme-handler/${scheme}`], { timeoutMs: XDG_MIME_TIMEOUT_MS }).catch(() => '');
    return desktopFile.trim() !== '';
  }

  async function detect(): Promise<string[]> {
    const handled = await Promise.all([...schemes].map(async (scheme) => [scheme, await hasHandler(scheme)] as const));
    const installed = new Set(handled.filter(([, found]) => found).map(([scheme]) => scheme));
    return clients.filter((client) => installed.has(client.scheme)).map((client) => client.id);
  }

  return {
    detectClients() {
      if (!cached || now() - cached.at >= cacheMs) {
        const ids = detect();
        cached = { at: now(), ids };
        ids.catch(() => {
          cached = null;
        });
      }
      return cached.ids.then((ids) => [...ids]);
    },

    async canOpenScheme(scheme) {
      return schemes.has(scheme) && (await hasHandler(scheme));
    },
  };
}

/**
 * Opens a client's deep link with the OS; `{ opened: false }` for anything else: not a printable
 * ASCII URL, a scheme that is not one of this OS's clients (`javascript:`, `file:`, `https:`…), or a
 * client that is not installed right now.
 */
export async function openDeepLink(
  link: string,
  deps: { detector: ClientDetector; openExternal: (url: string) => Promise<void> },
): Promise<{ opened: boolean }> {
  const scheme = deepLinkScheme(link);
  if (!scheme || !(await deps.detector.canOpenScheme(scheme))) return { opened: false };
  try {
    await deps.openExternal(link);
    return { opened: true };
  } catch {
    return { opened: false };
  }
}

/** The lower-cased scheme of a well-formed `scheme://…` link, else null. */
export function deepLinkScheme(link: string): string | null {
  if (link.length > MAX_DEEP_LINK_LENGTH || !/^[\x21-\x7e]+$/.test(link)) return null;
  const match = /^([a-z][a-z0-9+.-]*):\/\//i.exec(link);
  if (!match) return null;
  try {
    new URL(link);
  } catch {
    return null;
  }
  return match[1]!.toLowerCase();
}
