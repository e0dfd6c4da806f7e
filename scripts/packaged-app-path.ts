/**
 * Prints the packaged desktop app's executable for this OS (after `npm run build:desktop` and electron-builder):
 *   ELECTRON_PATH="$(npx tsx scripts/packaged-app-path.ts)"
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BUILDER_CONFIG_FILE, packagedAppPath } from '../desktop/builder-config.js';

const config = JSON.parse(readFileSync(resolve(process.env.DESKTOP_OUT_DIR || 'out', BUILDER_CONFIG_FILE), 'utf8')) as Record<string, unknown>;
console.log(resolve(packagedAppPath(config, process.platform)));
