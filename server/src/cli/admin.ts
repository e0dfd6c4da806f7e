import { pathToFileURL } from 'node:url';
import { EmailSchema } from '../../../shared/auth.js';
import { ConfigError, loadConfig } from '../config.js';
import { createDb, type Db } from '../db/knex.js';
import { migrateToLatest } from '../db/migrate.js';
import { systemClock } from '../lib/clock.js';
import { createAuditRepo } from '../modules/audit/audit.repo.js';
import { createUsersRepo } from '../modules/users/users.repo.js';
import { createUsersService } from '../modules/users/users.service.js';

export const USAGE = `Usage: npm run admin -- <command>

  grant <email>    make <email> an admin (creates the account if it does not exist yet)
  revoke <email>   make <email> a normal user again
  list             list the admins`;

const CLI_ACTOR = { id: null, email: 'cli' };

/** Runs one admin command against `db`. Returns the text to print and the exit code. */
export async function runAdminCommand(db: Db, args: string[]): Promise<{ output: string; exitCode: number }> {
  const [command, rawEmail, ...extra] = args;
  const users = createUsersRepo(db);
  const service = createUsersService({ users, audit: createAuditRepo(db), clock: systemClock });

  if (command === 'list' && rawEmail === undefined) {
    const admins = await users.listAdminEmails();
    return { output: admins.length ? admins.join('\n') : 'No admins yet.', exitCode: 0 };
  }
  if ((command === 'grant' || command === 'revoke') && rawEmail !== undefined && extra.length === 0) {
    const email = EmailSchema.safeParse(rawEmail);
    if (!email.success) return { output: `Not an e-mail address: ${rawEmail}`, exitCode: 2 };
    const role = command === 'grant' ? 'admin' : 'user';
    const { user, changed } = await service.setRoleByEmail(CLI_ACTOR, email.data, role);
    const verb = command === 'grant' ? 'is now an admin' : 'is no longer an admin';
    return { output: changed ? `${user.email} ${verb}.` : `${user.email} already ${command === 'grant' ? 'was an admin' : 'was not an admin'}.`, exitCode: 0 };
  }
  return { output: USAGE, exitCode: 2 };
}

async function main(): Promise<void> {
  let databaseUrl: string;
  try {
    databaseUrl = loadConfig().databaseUrl;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const db = createDb(databaseUrl);
  try {
    await migrateToLatest(db);
    const { output, exitCode } = await runAdminCommand(db, process.argv.slice(2));
    (exitCode === 0 ? process.stdout : process.stderr).write(`${output}\n`);
    process.exitCode = exitCode;
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
