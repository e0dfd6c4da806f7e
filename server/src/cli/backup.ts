import { setPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig } from '../config.js';
import { BackupError, takeBackup } from '../modules/backups/index.js';

/**
 * `npm run backup`: one backup of the store while the site runs (docs/backups.md), sealed with BACKUP_PASSPHRASE
 * into BACKUP_DIR. Its path is the last line printed; problems go to stderr with a non-zero exit.
 */
async function main(): Promise<void> {
  // The lowest CPU priority (the copy's thread, started below, inherits it): the site beside it comes first.
  try {
    setPriority(19);
  } catch {
    // Not allowed here: the backup runs at the usual priority.
  }
  try {
    const config = loadConfig();
    const started = Date.now();
    const file = await takeBackup(config);
    process.stderr.write(`Backup written in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
    process.stdout.write(`${file}\n`);
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
  await main();
}
