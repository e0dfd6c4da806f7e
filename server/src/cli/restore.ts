import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../config.js';
import { BackupError, restoreBackup } from '../modules/backups/index.js';

const USAGE = `Usage: npm run restore -- <backup file>

Restores a backup made by npm run backup into DATA_DIR and DATABASE_URL, which must hold no store yet.
BACKUP_PASSPHRASE must be the passphrase the backup was taken with. See docs/backups.md.`;

/** `npm run restore -- FILE`: a backup into an empty DATA_DIR / DATABASE_URL; refuses a live one (exit 1). */
async function main(args: string[]): Promise<void> {
  if (args.length !== 1 || args[0]!.startsWith('-')) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    const config = loadConfig();
    const restored = await restoreBackup(config, resolve(args[0]!));
    const lines = [
      `Restored the backup taken ${restored.header.createdAt} (version ${restored.header.appVersion}) into ${restored.database}.`,
      restored.secretFile
        ? `The app secret is in ${restored.secretFile}; in production set APP_SECRET to its value.`
        : 'APP_SECRET already holds the backup\u2019s secret.',
      'Start the server as usual: it brings the database up to date with this version on start.',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof BackupError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
