/**
 * Run by device-crash.test.ts as a process of its own: admits one device and kills itself with SIGKILL
 * the moment the database has run the insert, inside the admission's transaction, before its commit.
 * DEVICE_CRASH_DB is a `sqlite:` URL or a PostgreSQL URL (with DEVICE_CRASH_SCHEMA); the account is
 * DEVICE_CRASH_ACCOUNT. Test machinery only.
 */
import { createDb } from '../../db/knex.js';
import { createDevicesRepo } from './devices.repo.js';

const db = createDb(process.env.DEVICE_CRASH_DB!, { searchPath: process.env.DEVICE_CRASH_SCHEMA || undefined });
db.on('query-response', (_response: unknown, query: { sql?: string }) => {
  if (/^insert into [`"]account_devices[`"]/i.test(query.sql ?? '')) process.kill(process.pid, 'SIGKILL');
});
await createDevicesRepo(db).admit(
  process.env.DEVICE_CRASH_ACCOUNT!,
  { hwid: 'crashing-device', os: 'Android', osVersion: '14', model: 'Pixel', app: 'Happ/3.2.1' },
  1,
  new Date(),
);
console.error('the insert ran and the process was not killed');
process.exit(3);
