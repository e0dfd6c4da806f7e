/**
 * Publishes a desktop release the release workflow built: copies its files into the storefront's update
 * folder, where installed apps find it (`PUBLIC_URL/desktop/updates/<channel>/`) and the download pages
 * offer it.
 *
 *   npm run desktop:publish -- <folder with the workflow's files> [--channel stable|beta] [--to <DESKTOP_UPDATES_DIR>]
 *
 * Installers, update zips and blockmaps go first, each feed (`latest*.yml`) last and only after every file it
 * names is in place with the size and SHA-512 it states, so an app never reads a feed whose files are
 * missing or different. Each file is written under a temporary name and renamed (never half-written).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { DESKTOP_CHANNELS, type DesktopChannel } from '../shared/desktop-releases.js';

/** What a release consists of: installers, the macOS update zip, blockmaps (differential updates) and feeds. */
const RELEASE_FILE = /\.(exe|msix|appx|dmg|zip|AppImage|deb|rpm|blockmap|yml)$/;
const FEED_FILE = /^latest(-[\w-]+)?\.yml$/;

async function sha512Of(path: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}

async function copyAtomically(from: string, to: string): Promise<void> {
  const temporary = `${to}.${process.pid}.partial`;
  await copyFile(from, temporary);
  await rename(temporary, to);
}

/** Every file the feed names, present in `dir` with the size and SHA-512 the feed states; else an error naming it. */
async function checkFeed(feedPath: string, dir: string): Promise<void> {
  const feed = load(await readFile(feedPath, 'utf8')) as { version?: unknown; files?: Array<{ url?: unknown; sha512?: unknown; size?: unknown }> };
  if (typeof feed?.version !== 'string' || !Array.isArray(feed.files) || feed.files.length === 0) {
    throw new Error(`${basename(feedPath)} is not an update feed (no version or files)`);
  }
  for (const file of feed.files) {
    if (typeof file.url !== 'string' || basename(file.url) !== file.url)
      throw new Error(`${basename(feedPath)} names ${String(file.url)}, which is not a file of the release`);
    const path = join(dir, file.url);
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new Error(`${basename(feedPath)} names ${file.url}, which is missing`);
    if (typeof file.size === 'number' && info.size !== file.size) throw new Error(`${file.url} is ${info.size} bytes; ${basename(feedPath)} says ${file.size}`);
    if (typeof file.sha512 === 'string' && (await sha512Of(path)) !== file.sha512)
      throw new Error(`${file.url} does not match the SHA-512 in ${basename(feedPath)}`);
  }
}

export interface PublishResult {
  channel: DesktopChannel;
  files: string[];
  feeds: string[];
}

export async function publishDesktopRelease(opts: { from: string; to: string; channel: DesktopChannel }): Promise<PublishResult> {
  const names = (await readdir(opts.from)).filter((name) => RELEASE_FILE.test(name)).sort();
  const feeds = names.filter((name) => FEED_FILE.test(name));
  const files = names.filter((name) => !FEED_FILE.test(name) && !name.endsWith('.yml'));
  if (feeds.length === 0)
    throw new Error(`${opts.from} has no update feed (latest.yml, latest-mac.yml or latest-linux.yml): is it the workflow's artifacts folder?`);
  // Checked where they are before anything is copied: a broken release publishes nothing.
  for (const feed of feeds) await checkFeed(join(opts.from, feed), opts.from);
  const target = join(opts.to, opts.channel);
  await mkdir(target, { recursive: true });
  for (const name of files) await copyAtomically(join(opts.from, name), join(target, name));
  for (const feed of feeds) {
    await checkFeed(join(opts.from, feed), target);
    await copyAtomically(join(opts.from, feed), join(target, feed));
  }
  return { channel: opts.channel, files, feeds };
}

function parseArgs(argv: string[]): { from: string; to: string; channel: DesktopChannel } {
  const value = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const from = argv.find((arg, i) => !arg.startsWith('--') && !argv[i - 1]?.startsWith('--'));
  const channel = (value('channel') ?? 'stable') as DesktopChannel;
  if (!from) throw new Error('Usage: npm run desktop:publish -- <folder with the release files> [--channel stable|beta] [--to <DESKTOP_UPDATES_DIR>]');
  if (!DESKTOP_CHANNELS.includes(channel)) throw new Error(`--channel must be one of ${DESKTOP_CHANNELS.join(', ')}`);
  const to = value('to') ?? process.env.DESKTOP_UPDATES_DIR ?? join(process.env.DATA_DIR ?? './data', 'desktop-updates');
  return { from: resolve(from), to: resolve(to), channel };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  Promise.resolve()
    .then(() => publishDesktopRelease(parseArgs(process.argv.slice(2))))
    .then(
      (result) => console.log(`Published to the ${result.channel} channel: ${[...result.files, ...result.feeds].join(', ')}`),
      (error: unknown) => {
        console.error(error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
}
