import { pathToFileURL } from 'node:url';
import { EmailSchema, STAFF_ROLES, type Role, type StaffRole } from '../../../shared/auth.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createDb } from '../db/knex.js';
import { AppError } from '../errors.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Services } from '../services.js';
import { createCliServices } from './cli-services.js';

export const USAGE = `Usage: npm run admin -- <command>

  grant <email> [role]   give <email> a staff role: owner, admin, support or finance (creates the account if
                         it does not exist yet); without a role, owner while the store has none, else admin
  revoke <email>         make <email> a customer again (the last owner cannot be)
  list                   list the staff with their roles`;

const CLI_ACTOR = { id: null, email: 'cli' };

const ARTICLE: Record<StaffRole, string> = { owner: 'an owner', admin: 'an admin', support: 'support', finance: 'finance' };

/** Runs one admin command with the server's services. Returns the text to print and the exit code. */
export async function runAdminCommand(services: Pick<Services, 'users' | 'usersRepo'>, args: string[]): Promise<{ output: string; exitCode: number }> {
  const [command, rawEmail, rawRole, ...extra] = args;
  const service = services.users;

  if (command === 'list' && rawEmail === undefined) {
    const staff = await service.listStaff();
    return { output: staff.length ? staff.map((member) => `${member.email}  ${member.role}`).join('\n') : 'No staff yet.', exitCode: 0 };
  }
  const grant = command === 'grant' && rawEmail !== undefined && extra.length === 0;
  const revoke = command === 'revoke' && rawEmail !== undefined && rawRole === undefined;
  if (!grant && !revoke) return { output: USAGE, exitCode: 2 };
  const email = EmailSchema.safeParse(rawEmail);
  if (!email.success) return { output: `Not an e-mail address: ${rawEmail}`, exitCode: 2 };
  if (rawRole !== undefined && !(STAFF_ROLES as readonly string[]).includes(rawRole)) {
    return { output: `Not a staff role: ${rawRole} (owner, admin, support or finance)`, exitCode: 2 };
  }
  const role: Role = revoke ? 'user' : ((rawRole as StaffRole | undefined) ?? ((await services.usersRepo.countOwners()) === 0 ? 'owner' : 'admin'));
  try {
    const { user, changed } = await service.setRoleByEmail(CLI_ACTOR, email.data, role);
    if (revoke) return { output: changed ? `${user.email} is no longer staff.` : `${user.email} already was not staff.`, exitCode: 0 };
    return { output: `${user.email} ${changed ? 'is now' : 'already was'} ${ARTICLE[role as StaffRole]}.`, exitCode: 0 };
  } catch (err) {
    if (err instanceof AppError) return { output: err.message, exitCode: 1 };
    throw err;
  }
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
