/**
 * A desktop release as the release workflow leaves it (electron-builder's files and update feeds, with real
 * sizes and SHA-512s), made of small random files: for the update folder's routes, the publish script, the
 * download pages and the app's updater.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DesktopPlatform } from '../../shared/desktop-releases.js';

export interface ReleaseFile {
  name: string;
  bytes: Buffer;
  sha256: string;
  sha512: string;
}

function releaseFile(name: string, size: number): ReleaseFile {
  const bytes = randomBytes(size);
  return { name, bytes, sha256: createHash('sha256').update(bytes).digest('hex'), sha512: createHash('sha512').update(bytes).digest('base64') };
}

/** Each platform's files: the feed names those electron-builder puts in it; `beside` are installers it leaves out (MSIX). */
export function releaseFiles(version: string, productName = 'Lumen VPN') {
  return {
    windows: {
      feed: 'latest.yml',
      files: [releaseFile(`${productName} Setup ${version}.exe`, 4096)],
      beside: [releaseFile(`${productName} ${version}.appx`, 2048)],
    },
    macos: {
      feed: 'latest-mac.yml',
      files: [releaseFile(`${productName}-${version}-universal-mac.zip`, 3072), releaseFile(`${productName}-${version}-universal.dmg`, 3584)],
      beside: [],
    },
    linux: {
      feed: 'latest-linux.yml',
      files: [releaseFile(`${productName}-${version}.AppImage`, 5120)],
      beside: [releaseFile(`lumen-vpn_${version}_amd64.deb`, 2560)],
    },
  } satisfies Record<DesktopPlatform, { feed: string; files: ReleaseFile[]; beside: ReleaseFile[] }>;
}

/** The feed text electron-builder writes for `files` (the first is `path`). */
export function feedText(version: string, files: ReleaseFile[], releaseDate = '2026-11-20T10:00:00.000Z'): string {
  const entries = files.map((f) => `  - url: ${f.name}\n    sha512: ${f.sha512}\n    size: ${f.bytes.length}`).join('\n');
  return `version: ${version}\nfiles:\n${entries}\npath: ${files[0]!.name}\nsha512: ${files[0]!.sha512}\nreleaseDate: '${releaseDate}'\n`;
}

/** Writes the release of `platforms` into `dir` (the workflow's artifacts folder, or a channel folder); returns its files. */
export function writeRelease(dir: string, version: string, platforms: readonly DesktopPlatform[] = ['windows', 'macos', 'linux']) {
  mkdirSync(dir, { recursive: true });
  const all = releaseFiles(version);
  for (const platform of platforms) {
    const { feed, files, beside } = all[platform];
    for (const file of [...files, ...beside]) writeFileSync(join(dir, file.name), file.bytes);
    writeFileSync(join(dir, feed), feedText(version, files));
  }
  return all;
}
