import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/knex.js';
import type { Clock } from '../../lib/clock.js';
import type { PanelDriver } from '../../panels/panel-driver.js';
import type { AccountsRepo } from '../accounts/index.js';
import type { BillingNotices } from '../billing/index.js';
import type { ServerRecord } from '../servers/index.js';
import type { PanelSyncRepo } from './panel-sync.repo.js';

/** What the panel sync (panel-sync.ts, panel-values.ts, sync-server.ts) works with, and what one server's tick reports. */

export interface PanelSyncDeps {
  db: Db;
  repo: PanelSyncRepo;
  accounts: AccountsRepo;
  listServers(): Promise<ServerRecord[]>;
  driverFor(server: ServerRecord): PanelDriver;
  notices: BillingNotices;
  /** An account's status changed: cached `/sub` answers for it go. */
  accountChanged(accountId: string): void;
  clock: Clock;
  log: FastifyBaseLogger;
  options?: Partial<SyncOptions>;
}

export interface SyncOptions {
  pageSize: number;
  pagesPerTick: number;
  lookupsPerPass: number;
}

export interface ServerSyncResult {
  server: string;
  pages: number;
  updated: number;
  /** Accounts whose panel user is gone (found at the end of a complete pass). */
  missing: number;
  completePass: boolean;
  error: string | null;
}
