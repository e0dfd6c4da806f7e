import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import { z } from 'zod';
import type { ImportPanelUsersBody, ImportResult, ImportRowProblem, PanelUsersPage, PanelUsersQuery } from '../../../../shared/panel-import.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { PanelError, type PanelAccount, type PanelDriver } from '../../panels/panel-driver.js';
import type { AuditRepo } from '../audit/index.js';
import type { PlansRepo } from '../plans/index.js';
import type { ServerRecord } from '../servers/index.js';
import type { Actor } from '../users/index.js';
import type { ImportRow, PanelImportRepo } from './panel-import.repo.js';

/** Panel reads made at once while an import checks its rows. */
const LOOKUP_CONCURRENCY = 4;
/** vpn_accounts.username is 64 characters; panels allow at most 36. */
const USERNAME_MAX = 64;

const Email = z.string().trim().toLowerCase().pipe(z.email());

export interface PanelImportDeps {
  repo: PanelImportRepo;
  plans: Pick<PlansRepo, 'findById'>;
  findServer(id: string): Promise<ServerRecord | undefined>;
  driverFor(server: ServerRecord): PanelDriver;
  audit: AuditRepo;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** The panel could not be asked: nothing was read or written, try again. */
function panelUnavailable(err: unknown, log: FastifyBaseLogger, serverId: string): AppError {
  log.warn({ err: err instanceof Error ? err.message : err, serverId }, 'panel import: the panel could not be read');
  const reason = err instanceof PanelError ? err.message : 'the panel did not answer';
  return new AppError(err instanceof PanelError && !err.retryable ? 400 : 502, 'panel_error', `The panel could not be read (${reason}). Nothing was imported.`);
}

/**
 * Moving an existing panel's customers in: list the panel users no account here holds, and link them to
 * customers by e-mail. Every row is checked (and each panel user read) before anything is written; one bad
 * row refuses the whole import with a message per row. The panel itself is only read.
 */
export function createPanelImportService(deps: PanelImportDeps) {
  const { repo, clock, log } = deps;

  async function loadServer(id: string): Promise<ServerRecord> {
    const server = await deps.findServer(id);
    if (!server) throw notFound('Server not found.');
    return server;
  }

  /** Each row's own problem (shape, duplicates, already linked); the rows still worth asking the panel about. */
  async function checkRows(links: ImportPanelUsersBody['links']) {
    const problems: ImportRowProblem[] = [];
    const candidates: Array<{ row: number; username: string; email: string }> = [];
    const seen = new Map<string, number>();
    for (const [index, link] of links.entries()) {
      const row = index + 1;
      const username = link.username.trim();
      const email = Email.safeParse(link.email);
      const problem = (message: string) => problems.push({ row, username, email: link.email.trim(), message });
      if (username === '') problem('The username is empty.');
      else if (username.length > USERNAME_MAX) problem(`The username is longer than ${USERNAME_MAX} characters.`);
      else if (!email.success) problem('The e-mail address is not valid.');
      else if (seen.has(username.toLowerCase())) problem(`The same username is on row ${seen.get(username.toLowerCase())}.`);
      else {
        seen.set(username.toLowerCase(), row);
        candidates.push({ row, username, email: email.data });
      }
    }
    const linked = await repo.findLinkedUsernames(candidates.map((candidate) => candidate.username));
    const unlinked = candidates.filter((candidate) => {
      if (!linked.has(candidate.username)) return true;
      problems.push({ ...candidate, message: 'An account here already holds this panel user.' });
      return false;
    });
    return { problems, unlinked };
  }

  /** Reads each user from the panel (it must exist there); the first failure of the panel itself ends the import. */
  async function readPanelUsers(
    server: ServerRecord,
    rows: Array<{ row: number; username: string; email: string }>,
    problems: ImportRowProblem[],
  ): Promise<ImportRow[]> {
    const driver = deps.driverFor(server);
    const limit = pLimit(LOOKUP_CONCURRENCY);
    const found = await Promise.all(
      rows.map((candidate) =>
        limit(async () => {
          let panel: PanelAccount | null;
          try {
            panel = await driver.getAccount(candidate.username);
          } catch (err) {
            if (err instanceof PanelError && err.kind === 'rejected') {
              problems.push({ ...candidate, message: `The panel refused to read this user: ${err.message}` });
              return null;
            }
            throw panelUnavailable(err, log, server.id);
          }
          if (!panel) problems.push({ ...candidate, message: 'The panel has no user with this name.' });
          return panel ? { email: candidate.email, panel } : null;
        }),
      ),
    );
    // A panel that ignores case (Marzneshin) may know the user by another spelling: that one is taken here.
    const taken = await repo.findLinkedUsernames(found.flatMap((row) => (row ? [row.panel.username] : [])));
    return found.flatMap((row, index) => {
      if (!row) return [];
      if (!taken.has(row.panel.username)) return [row];
      problems.push({ ...rows[index]!, message: 'An account here already holds this panel user.' });
      return [];
    });
  }

  return {
    /** One page of the panel's users, each marked linked or not (`unlinked` leaves the linked out). */
    async listPanelUsers(serverId: string, query: PanelUsersQuery): Promise<PanelUsersPage> {
      const server = await loadServer(serverId);
      let page: { accounts: PanelAccount[]; total: number };
      try {
        page = await deps.driverFor(server).listAccounts({ page: query.page, size: query.size });
      } catch (err) {
        throw panelUnavailable(err, log, server.id);
      }
      const linked = await repo.findLinkedUsernames(page.accounts.map((account) => account.username));
      const users = page.accounts
        .map((account) => ({
          username: account.username,
          status: account.status,
          expiresAt: account.expiresAt?.toISOString() ?? null,
          usedTrafficBytes: account.usedTrafficBytes,
          dataLimitBytes: account.dataLimitBytes,
          linked: linked.has(account.username),
        }))
        .filter((user) => !query.unlinked || !user.linked);
      return { users, page: query.page, size: query.size, total: page.total, hasMore: query.page * query.size < page.total };
    },

    async importUsers(actor: Actor, serverId: string, body: ImportPanelUsersBody): Promise<ImportResult> {
      const server = await loadServer(serverId);
      const planId = body.planId ?? null;
      if (planId && !(await deps.plans.findById(planId))) {
        throw new AppError(400, 'validation_failed', 'The plan to renew as does not exist.', { fields: { planId: 'The plan to renew as does not exist.' } });
      }
      const { problems, unlinked } = await checkRows(body.links);
      const rows = await readPanelUsers(server, unlinked, problems);
      if (problems.length > 0) {
        problems.sort((a, b) => a.row - b.row);
        const count = problems.length;
        throw new AppError(
          400,
          'import_invalid',
          `${count} row${count === 1 ? '' : 's'} cannot be imported (first: row ${problems[0]!.row}, ${problems[0]!.message}). Nothing was imported.`,
          { rows: problems },
        );
      }
      let imported;
      try {
        imported = await repo.insertImported(server.id, planId, rows, clock());
      } catch (err) {
        // Another import took one of these users in the meantime: this one wrote nothing.
        if (isUniqueViolation(err))
          throw new AppError(
            409,
            'import_conflict',
            'Some of these panel users were imported at the same moment by another request. Nothing was imported; list the users again.',
          );
        throw err;
      }
      await deps.audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'server.import',
        targetType: 'server',
        targetId: server.id,
        details: { accounts: imported.length, newCustomers: imported.filter((row) => row.newCustomer).length, planId },
        ip: actor.ip ?? null,
        now: clock(),
      });
      return { imported };
    },
  };
}

export type PanelImportService = ReturnType<typeof createPanelImportService>;
