import { lstatSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { DESKTOP_CHANNELS } from '../../../../shared/desktop-releases.js';
import { PUBLISHED_FILE, type ReleaseFeeds } from './release-feeds.js';
import { DesktopReleasesAnswer } from '../../answers/desktop-releases.js';

/** `/<channel>/<file>` under the prefix: one file of a known channel, nothing deeper, nothing hidden. */
const SERVED = new RegExp(`^/(?:${DESKTOP_CHANNELS.join('|')})/([^/]+)$`);

/**
 * Whether the path is a regular file in a real channel folder: a symbolic link (to a file or a folder, in the
 * folder or out of it) is never followed, so nothing outside DESKTOP_UPDATES_DIR can be served through one.
 */
function regularFile(root: string, pathName: string): boolean {
  try {
    const file = join(root, pathName);
    return lstatSync(dirname(file)).isDirectory() && lstatSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The desktop app's auto-update folder, `PUBLIC_URL/desktop/updates/<channel>/` (electron-updater's generic
 * provider): the feeds (`*.yml`) as YAML that no cache keeps, so an app sees a release the moment it is
 * published; installers, blockmaps and update zips cached for a year (a release never reuses a file name)
 * and answered in ranges (resumed and differential downloads). Anything outside a channel folder, or not a
 * regular file there (a symbolic link), is a 404.
 * And `GET /api/desktop/releases`: what is published, for the download pages and the admin.
 */
export async function desktopUpdatesRoutes(app: FastifyInstance, opts: { dir: string; feeds: ReleaseFeeds }) {
  for (const channel of DESKTOP_CHANNELS) {
    try {
      // Owner-only like the rest of DATA_DIR (the server reads it; visitors get files through the route).
      mkdirSync(join(opts.dir, channel), { recursive: true, mode: 0o700 });
    } catch (error) {
      app.log.warn({ err: error, dir: opts.dir }, 'desktop updates: the folder could not be created; nothing is served until it exists');
    }
  }
  await app.register(fastifyStatic, {
    root: opts.dir,
    prefix: '/desktop/updates/',
    decorateReply: false,
    index: false,
    // Releases are published while the server runs: files are looked up per request.
    wildcard: true,
    dotfiles: 'deny',
    allowedPath: (pathName, root) => PUBLISHED_FILE.test(SERVED.exec(pathName)?.[1] ?? '') && regularFile(root, pathName),
    setHeaders(reply, path) {
      if (path.endsWith('.yml')) {
        reply.header('Content-Type', 'text/yaml; charset=utf-8');
        reply.header('Cache-Control', 'no-cache');
      } else {
        reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      }
    },
  });

  app.get('/api/desktop/releases', { schema: { response: { 200: DesktopReleasesAnswer } } }, async () => opts.feeds.list());
}
