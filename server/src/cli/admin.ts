import { pathToFileURL } from 'node:url';
import { EmailSchema } from '../../../shared/auth.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createDb } from '../db/knex.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Services } from '../services.js';
import { createCliServices } from './cli-services.js';

export const USAGE = `Usage: npm run admin -- <command>

  grant <email>    make <email> an admin (creates the account if it does not exist yet)
  revoke <email>   make <email> a normal user again
  list             list the admins`;

const CLI_ACTOR = { id: null, email: 'cli' };

/** Runs one admin command with the server's services. Returns the text to print and the exit code. */
export async function runAdminCommand(services: Pick<Services, 'users' | 'usersRepo'>, args: string[]): Promise<{ output: string; exitCode: number }> {
  const [command, rawEmail, ...extra] = args;
  const users = services.usersRepo;
  const service = services.users;

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
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const db = createDb(config.databaseUrl);
  await migrateToLatest(db);
  const services = createCliServices(config, db);
  try {
    const { output, exitCode } = await runAdminCommand(services, process.argv.slice(2));
    (exitCode === 0 ? process.stdout : process.stderr).write(`${output}\n`);
    process.exitCode = exitCode;
  } finally {
    await services.close();
    await db.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
