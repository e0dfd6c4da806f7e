/**
 * What the operator published of their desktop app, read from `DESKTOP_UPDATES_DIR/<channel>/`: the update
 * feeds electron-builder writes (`latest.yml` for Windows, `latest-mac.yml`, `latest-linux.yml`) and the
 * installers they name, with the installers for people that sit beside them (an MSIX, a deb or rpm not in
 * the feed). Kept until a feed file changes; each installer's SHA-256 is computed once per file version.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { z } from 'zod';
import {
  DESKTOP_CHANNELS,
  type DesktopChannel,
  type DesktopChannelRelease,
  type DesktopInstaller,
  type DesktopPlatform,
  type DesktopPlatformRelease,
  type DesktopReleasesResponse,
} from '../../../../shared/desktop-releases.js';
import { LruMap } from '../../lib/lru-map.js';

/** The feed of each platform, as electron-builder names them for the channel `latest`. */
export const FEED_FILES: Record<DesktopPlatform, string> = { windows: 'latest.yml', macos: 'latest-mac.yml', linux: 'latest-linux.yml' };

/** Installers for people per platform, in the order offered; what is not listed (the macOS update zip, blockmaps) is for the updater only. */
const INSTALLER_KINDS: Record<DesktopPlatform, readonly string[]> = { windows: ['exe', 'msix', 'appx'], macos: ['dmg'], linux: ['AppImage', 'deb', 'rpm'] };

/** A channel folder's file: one name, no folder, not hidden (what the routes serve, and what a feed may name). */
export const PUBLISHED_FILE = /^[^/\\.][^/\\]*$/;

const Feed = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][\w.+-]*)?$/, 'a version such as 1.2.0'),
  files: z.array(z.object({ url: z.string().min(1) })).default([]),
  path: z.string().optional(),
  releaseDate: z.union([z.string(), z.date()]).optional(),
});

const extensionOf = (name: string) => name.slice(name.lastIndexOf('.') + 1);

export interface ReleaseFeedsOptions {
  /** DESKTOP_UPDATES_DIR. */
  dir: string;
  /** Feeds are looked at again after this long (they are read again only when one changed). */
  recheckMs?: number;
  now?: () => number;
  /** Where a feed that cannot be read is reported (the platform is then shown as not published). */
  warn?: (message: string) => void;
}

export function createReleaseFeeds(opts: ReleaseFeedsOptions) {
  const now = opts.now ?? Date.now;
  const recheckMs = opts.recheckMs ?? 2_000;
  const digests = new LruMap<string, Promise<string>>(64);
  let kept: { signature: string; checkedAt: number; value: Promise<DesktopReleasesResponse> } | undefined;

  /** Hex SHA-256 of a file, read as a stream; kept per path, size and modification time. */
  function sha256Of(path: string, size: number, mtimeMs: number): Promise<string> {
    const key = `${path}\0${size}\0${mtimeMs}`;
    let digest = digests.get(key);
    if (!digest) {
      digest = new Promise<string>((resolve, reject) => {
        const hash = createHash('sha256');
        createReadStream(path)
          .on('error', reject)
          .on('data', (chunk) => hash.update(chunk))
          .on('end', () => resolve(hash.digest('hex')));
      });
      digest.catch(() => digests.delete(key));
      digests.set(key, digest);
    }
    return digest;
  }

  async function installerAt(channel: DesktopChannel, dir: string, name: string): Promise<DesktopInstaller | undefined> {
    // Only a regular file (not a symbolic link): what the route serves.
    const info = await lstat(join(dir, name)).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    return {
      name,
      kind: extensionOf(name),
      url: `/desktop/updates/${channel}/${encodeURIComponent(name)}`,
      size: info.size,
      sha256: await sha256Of(join(dir, name), info.size, info.mtimeMs),
    };
  }

  async function readPlatform(channel: DesktopChannel, platform: DesktopPlatform, listing: string[]): Promise<DesktopPlatformRelease | undefined> {
    const dir = join(opts.dir, channel);
    const text = await readFile(join(dir, FEED_FILES[platform]), 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    let feed: z.infer<typeof Feed>;
    try {
      feed = Feed.parse(load(text));
    } catch (error) {
      opts.warn?.(
        `desktop updates: ${channel}/${FEED_FILES[platform]} cannot be read (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
      );
      return undefined;
    }
    const kinds = INSTALLER_KINDS[platform];
    const named = [...feed.files.map((f) => f.url), ...(feed.path ? [feed.path] : [])];
    // Installers the feed does not name but that belong to this version (an MSIX, or a deb beside an AppImage feed):
    // the version as a whole word of the name (1.3.0 is not in 11.3.0, 1.3.0.1 or 1.3.0-beta.1).
    const ofVersion = new RegExp(`(?<![\\d.])${feed.version.replace(/[.+]/g, '\\$&')}(?![\\d-]|\\.\\d)`);
    const beside = listing.filter((name) => ofVersion.test(name));
    const names = [...new Set([...named, ...beside])].filter((name) => PUBLISHED_FILE.test(name) && kinds.includes(extensionOf(name)));
    names.sort((a, b) => kinds.indexOf(extensionOf(a)) - kinds.indexOf(extensionOf(b)) || a.localeCompare(b));
    const installers = (await Promise.all(names.map((name) => installerAt(channel, dir, name)))).filter((i): i is DesktopInstaller => i !== undefined);
    const releaseDate = feed.releaseDate instanceof Date ? feed.releaseDate.toISOString() : (feed.releaseDate ?? null);
    return { version: feed.version, releaseDate, installers };
  }

  async function readChannel(channel: DesktopChannel): Promise<DesktopChannelRelease> {
    const listing = await readdir(join(opts.dir, channel)).catch(() => [] as string[]);
    const release: DesktopChannelRelease = {};
    for (const platform of Object.keys(FEED_FILES) as DesktopPlatform[]) {
      const found = await readPlatform(channel, platform, listing);
      if (found) release[platform] = found;
    }
    return release;
  }

  async function readAll(): Promise<DesktopReleasesResponse> {
    const entries = await Promise.all(DESKTOP_CHANNELS.map(async (channel) => [channel, await readChannel(channel)] as const));
    return { channels: Object.fromEntries(entries) as DesktopReleasesResponse['channels'] };
  }

  /** Size and modification time of each channel folder (a file added or removed) and feed file (a release published or withdrawn). */
  async function signature(): Promise<string> {
    const parts = await Promise.all(
      DESKTOP_CHANNELS.flatMap((channel) =>
        ['', ...Object.values(FEED_FILES)].map(async (file) => {
          const info = await stat(join(opts.dir, channel, file)).catch(() => undefined);
          return info ? `${info.size}:${info.mtimeMs}` : '-';
        }),
      ),
    );
    return parts.join(',');
  }

  return {
    /** Every channel's release per platform. */
    async list(): Promise<DesktopReleasesResponse> {
      const at = now();
      if (kept && at - kept.checkedAt < recheckMs) return kept.value;
      const current = await signature();
      if (kept?.signature === current) {
        kept.checkedAt = at;
        return kept.value;
      }
      const value = readAll();
      kept = { signature: current, checkedAt: at, value };
      value.catch(() => {
        if (kept?.value === value) kept = undefined;
      });
      return value;
    },
  };
}

export type ReleaseFeeds = ReturnType<typeof createReleaseFeeds>;
