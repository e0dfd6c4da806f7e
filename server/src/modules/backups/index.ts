/**
 * What the backups module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { type backupsModule } from './backups.module.js';
export { type BackupStatusReader } from './backup-status.js';
export { BackupError, readBackupHeader } from './backup-file.js';
export { listBackups } from './backup-list.js';
export { restoreBackup } from './restore-backup.js';
export { takeBackup } from './take-backup.js';
