import type { VpnAccount } from '../../../../shared/accounts.js';
import type { ExtendAccountBody } from '../../../../shared/users.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { PanelError, type PanelAccount, type PanelDriver } from '../../panels/panel-driver.js';
import type { AuditRepo } from '../audit/index.js';
import type { ServersService } from '../servers/index.js';
import type { UsersRepo, Actor } from '../users/index.js';
import type { AccountRecord, AccountsRepo } from './accounts.repo.js';
import type { AccountsService } from './accounts.service.js';
import { DAY_MS } from '../../../../shared/constants.js';
import { panelUsage } from './panel-values.js';

const GB = 1024 ** 3;

/**
 * What an admin does to one customer's VPN account from the user page: extend it, reset its usage,
 * disable or enable it, delete it. Each acts on the panel first; only what the panel confirmed is
 * written here, and each is audited against the owner (so the user page lists it, even after a delete).
 */
export function createAdminAccountActions(deps: {
  accounts: AccountsRepo;
  accountsService: AccountsService;
  users: UsersRepo;
  servers: ServersService;
  audit: AuditRepo;
  /** Cached `/sub` answers for the account go. */
  accountChanged(accountId: string): void;
  clock: Clock;
}) {
  const { accounts, clock } = deps;

  async function load(id: string): Promise<AccountRecord> {
    const account = await accounts.findById(id);
    if (!account) throw notFound('Account not found');
    return account;
  }

  /** Runs `action` on the account's panel user; a panel that does not answer is a 503, a refusal a 502. */
  async function onPanel(account: AccountRecord, action: (driver: PanelDriver) => Promise<PanelAccount>): Promise<PanelAccount> {
    if (account.status === 'suspended') throw new AppError(409, 'account_suspended', 'This account is waiting for its payment: renew or refund it instead.');
    const server = account.masterServerId ? await deps.servers.findServerRecord(account.masterServerId) : undefined;
    if (!server) throw new AppError(409, 'account_not_provisioned', 'This account has no panel user to change.');
    try {
      return await action(deps.servers.driverFor(server));
    } catch (err) {
      if (!(err instanceof PanelError)) throw err;
      throw new AppError(err.retryable ? 503 : 502, 'panel_error', `The panel did not make the change: ${err.message}`);
    }
  }

  async function save(account: AccountRecord, panel: PanelAccount): Promise<void> {
    await accounts.updateUsage(account.id, panelUsage(panel, account.links), clock());
    deps.accountChanged(account.id);
  }

  const record = (actor: Actor, action: string, account: AccountRecord, details: Record<string, unknown> = {}) =>
    deps.audit.record({
      actorId: actor.id,
      actorEmail: actor.email,
      action,
      targetType: 'user',
      targetId: account.userId,
      details: { accountId: account.id, username: account.username, ...details },
      ip: actor.ip ?? null,
      now: clock(),
    });

  async function shown(account: AccountRecord): Promise<VpnAccount> {
    return (await deps.accountsService.findAccount(account.userId, account.id))!;
  }

  return {
    async extend(actor: Actor, id: string, body: ExtendAccountBody): Promise<VpnAccount> {
      const account = await load(id);
      const now = clock();
      const from = account.expireDate && account.expireDate > now ? account.expireDate : now;
      const expiresAt = body.days !== undefined ? new Date(from.getTime() + body.days * DAY_MS) : undefined;
      const dataLimitBytes = body.dataLimitGb === undefined ? undefined : body.dataLimitGb === null ? null : Math.round(body.dataLimitGb * GB);
      const panel = await onPanel(account, (driver) =>
        driver.extendAccount(account.username, {
          ...(expiresAt !== undefined ? { expiresAt } : {}),
          ...(dataLimitBytes !== undefined ? { dataLimitBytes } : {}),
        }),
      );
      await save(account, panel);
      await record(actor, 'account.extend', account, {
        days: body.days ?? null,
        dataLimitGb: body.dataLimitGb ?? null,
        expiresAt: panel.expiresAt?.toISOString() ?? null,
      });
      return shown(account);
    },

    async resetUsage(actor: Actor, id: string): Promise<VpnAccount> {
      const account = await load(id);
      const panel = await onPanel(account, (driver) => driver.resetUsage(account.username));
      await save(account, panel);
      await record(actor, 'account.reset_usage', account, { usedTrafficBytes: account.usedTrafficBytes });
      return shown(account);
    },

    async setEnabled(actor: Actor, id: string, enabled: boolean): Promise<VpnAccount> {
      const account = await load(id);
      const panel = await onPanel(account, (driver) => driver.setEnabled(account.username, enabled));
      await save(account, panel);
      await record(actor, enabled ? 'account.enable' : 'account.disable', account);
      return shown(account);
    },

    /** The same deletion as the owner's (panel user, open checkouts, row), recorded as the admin's. */
    async remove(actor: Actor, id: string): Promise<void> {
      const account = await load(id);
      const owner = await deps.users.findById(account.userId);
      if (!owner) throw notFound('Account not found');
      await deps.accountsService.deleteAccount(owner, id);
      deps.accountChanged(id);
      await record(actor, 'account.delete', account);
    },
  };
}

export type AdminAccountActions = ReturnType<typeof createAdminAccountActions>;
