import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder: the nearest folder above this file that holds package.json. */
function findRootDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the server code');
    dir = parent;
  }
  return dir;
}

export const ROOT_DIR = findRootDir();
export const APP_VERSION: string = (JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { version: string }).version;
export const WEB_DIST_DIR = join(ROOT_DIR, 'dist', 'web');
export const SITE_DIST_DIR = join(ROOT_DIR, 'dist', 'site');
/** The server bundle of the web app (`vite build --ssr`), which renders live pages. */
export const SERVER_BUNDLE_FILE = join(ROOT_DIR, 'dist', 'ssr', 'entry-server.js');
