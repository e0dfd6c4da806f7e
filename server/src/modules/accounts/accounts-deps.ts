import type { FastifyBaseLogger } from 'fastify';
import type { CommitToken } from '../../db/commit-token.js';
import type { Db } from '../../db/knex.js';
import type { Clock } from '../../lib/clock.js';
import type { PlansRepo } from '../plans/index.js';
import type { ServersService } from '../servers/index.js';
import type { SettingsService } from '../settings/index.js';
import type { UsersRepo } from '../users/index.js';
import type { AccountsRepo } from './accounts.repo.js';
import type { Provisioner } from './provisioning.js';

/** What the customer's accounts (their list, claiming a plan, the admin's custom account, deleting one) work with. */
export interface AccountsServiceDeps {
  db: Db;
  accounts: AccountsRepo;
  plans: PlansRepo;
  users: UsersRepo;
  servers: ServersService;
  settings: SettingsService;
  provisioner: Provisioner;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: URL;
  /** Closes the account's open renewal checkouts before it is deleted (throws to refuse the deletion). */
  closeOpenCheckouts(accountId: string): Promise<void>;
  /** The user's profile changed behind the users repository (a trial marked used): caches of it let go. */
  userChanged(userId: string): void;
  /** Moves when a server is added, renamed or removed (on any instance): the servers' public names are read again. */
  serversVersion?: () => number;
  /** Moves when a plan is added, changed or removed (on any instance): the plans accounts show are read again. */
  plansVersion?: () => number;
  /** With it, each customer's list of accounts is kept as JSON until anything is committed (see listAccountsJson). */
  commitToken?: CommitToken;
}
