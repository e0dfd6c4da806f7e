import { activeSubscriptionHost, originOf, type SubscriptionDomain } from '../../../../shared/subscription-domains.js';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ACCOUNT_MESSAGES, type AdminCreateAccountBody, type VpnAccount } from '../../../../shared/accounts.js';
import { BYTES_PER_GB } from '../../../../shared/constants.js';
import type { CommitToken } from '../../db/commit-token.js';
import type { Db } from '../../db/knex.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError, notFound, validationFailed } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { crashPoint } from '../../lib/crash-points.js';
import { KeptJson } from '../../lib/kept-json.js';
import { keptUntilCommit } from '../../lib/kept-until-commit.js';
import { versionedRead } from '../../lib/versioned-read.js';
import { PanelError } from '../../panels/panel-driver.js';
import { isPurchasable, isTrialPlan } from '../plans/plans.service.js';
import type { PlansRepo } from '../plans/plans.repo.js';
import type { ServersService } from '../servers/servers.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserProfile, UsersRepo } from '../users/users.repo.js';
import { expiryAfterDays, generateSubToken, generateUsername } from './account-values.js';
import { serializeAccountList } from './account-response.js';
import type { AccountRecord, AccountsRepo } from './accounts.repo.js';
import { shownExpiry } from './shown-expiry.js';
import { isoTime, isoTimeOrNull } from '../../lib/iso-time.js';
import { AccountNoLongerWaiting, provisionedFields, type Provisioned, type Provisioner } from './provisioning.js';

/** Usage and status are asked of the panel at most this often per account. */
export const USAGE_CACHE_SECONDS = 60;
const USAGE_TIMEOUT_NOTE = 'panel did not answer; showing the last known values';

/** What the panel said of an account's usage, and when. */
interface UsageAnswer {
  usage: Pick<AccountRecord, 'status' | 'usedTrafficBytes' | 'expireDate' | 'dataLimitBytes' | 'links'>;
  at: Date;
}

interface ShownSettings {
  trialPlanId: string | null;
  renewalGraceDays: number;
  /** `<origin>/sub/` of the domain links are issued on. */
  subLinkBase: string;
}

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

/** Customers whose list of accounts is kept at once (the ones asking most recently). */
const LISTS_KEPT = 1000;

export function createAccountsService(deps: AccountsServiceDeps) {
  const { accounts, clock } = deps;
  /** Servers are few and rarely change: their public names are kept, not joined into every account list. */
  const serverNames = versionedRead(() => accounts.listPublicServerNames(), { version: deps.serversVersion ?? (() => 0), now: () => clock().getTime() });
  /** Plans too: an account's plan comes from here, not from a join per account. */
  const planSummaries = versionedRead(() => accounts.listPlanSummaries(), { version: deps.plansVersion ?? (() => 0), now: () => clock().getTime() });
  /** A panel call for an account's usage in flight: concurrent visits of the dashboard share it. */
  const usageAsked = new Map<string, Promise<UsageAnswer | undefined>>();
  /**
   * `<origin>/sub/` of the domain links are issued on (PUBLIC_URL's, or the first spare subscription domain not
   * blocked): a token is base64url, which a URL keeps as it is, so the link is this and the token (a `new URL`
   * per account showed in profiles).
   */
  const subLinkBaseOf = (domains: readonly SubscriptionDomain[]) => `${originOf(activeSubscriptionHost(domains, deps.publicUrl), deps.publicUrl)}/sub/`;

  async function listOwn(userId: string): Promise<AccountRecord[]> {
    const [servers, plans] = await Promise.all([serverNames(), planSummaries()]);
    const own = await accounts.listForUser(userId, { servers, plans });
    const unheardOf = (account: AccountRecord) => (account.masterServerId && !servers.has(account.masterServerId)) || (account.planId && !plans.has(account.planId));
    if (!own.some(unheardOf)) return own;
    // A server or plan added on another instance that this one has not heard of yet: it is read now, not left out.
    const [freshServers, freshPlans] = await Promise.all([accounts.listPublicServerNames(), accounts.listPlanSummaries()]);
    return accounts.listForUser(userId, { servers: freshServers, plans: freshPlans });
  }

  /** What a customer sees of an account: our own `/sub/<token>` link, never the panel's address. */
  function toVpnAccount(account: AccountRecord, shown: ShownSettings, usageStale = false): VpnAccount {
    const provisioned = account.status !== 'suspended' && account.subscriptionUrl !== null;
    const ownLink = provisioned ? shown.subLinkBase + account.subToken : null;
    return {
      id: account.id,
      username: account.username,
      status: account.status,
      expireDate: isoTimeOrNull(shownExpiry(account.expireDate, account.paidUntil, shown.renewalGraceDays)),
      dataLimitBytes: account.dataLimitBytes > 0 ? account.dataLimitBytes : null,
      usedTrafficBytes: account.usedTrafficBytes,
      createdAt: isoTime(account.createdAt),
      combinedUrl: ownLink,
      subscriptionUrl: ownLink,
      links: account.links,
      server: account.server,
      planName: account.planName,
      planId: account.plan?.id ?? null,
      renewable: provisioned && account.plan !== null && isPurchasable(account.plan, shown.trialPlanId),
      usageStale,
      paymentConfirmed: account.paymentConfirmed,
      usageCheckedAt: isoTimeOrNull(account.usageCheckedAt),
      deviceLimit: account.deviceLimit,
      autoRenewFromWallet: account.walletAutoRenew,
    };
  }

  /** Whether the panel is asked for the account's usage now: its last answer is older than the cache. */
  const needsUsage = (account: AccountRecord, at: number): boolean =>
    account.status !== 'suspended' && account.masterServerId !== null
    && !(account.usageCheckedAt && at - account.usageCheckedAt.getTime() < USAGE_CACHE_SECONDS * 1000);

  /**
   * Until when an account as read holds without a commit: its usage answer going out of date (then the panel is
   * asked again); for ever while it waits for the panel (its status moves by a commit) or has no server.
   */
  const usageFreshUntil = (account: AccountRecord): number =>
    account.status === 'suspended' || account.masterServerId === null ? Infinity : (account.usageCheckedAt?.getTime() ?? 0) + USAGE_CACHE_SECONDS * 1000;

  /** Asks the panel for usage and status when the last answer is older than the cache (once at a time per account); stale when it could not. */
  async function refreshUsage(account: AccountRecord, at: number): Promise<{ account: AccountRecord; stale: boolean }> {
    if (!needsUsage(account, at) || !account.masterServerId) return { account, stale: false };
    let asked = usageAsked.get(account.id);
    if (!asked) {
      asked = askPanelForUsage(account, account.masterServerId).finally(() => usageAsked.delete(account.id));
      usageAsked.set(account.id, asked);
    }
    const answer = await asked;
    return answer ? { account: { ...account, ...answer.usage, usageCheckedAt: answer.at }, stale: false } : { account, stale: true };
  }

  /** The panel's usage for the account, saved; undefined when the panel could not say. */
  async function askPanelForUsage(account: AccountRecord, masterServerId: string): Promise<UsageAnswer | undefined> {
    const now = clock();
    const server = await deps.servers.findServerRecord(masterServerId);
    if (!server) return undefined;
    try {
      const panel = await deps.servers.driverFor(server).getAccount(account.username, { withLinks: account.links.length === 0 });
      if (!panel) return undefined;
      const usage = {
        status: panel.status,
        usedTrafficBytes: panel.usedTrafficBytes,
        expireDate: panel.expiresAt,
        dataLimitBytes: panel.dataLimitBytes ?? 0,
        links: panel.links ?? account.links,
      };
      await accounts.updateUsage(account.id, usage, now);
      return { usage, at: now };
    } catch (err) {
      deps.log.warn({ accountId: account.id, err: err instanceof Error ? err.message : err }, USAGE_TIMEOUT_NOTE);
      return undefined;
    }
  }

  /**
   * Saves what the panel created, and for a trial marks the trial used, together. A row that no longer
   * waits was taken over by the sweep of stuck accounts (this request had stalled past its threshold):
   * fine if it adopted this very user, otherwise the user is not ours to keep.
   */
  async function completeProvisioning(accountId: string, result: Provisioned, trialUser: UserProfile | null): Promise<AccountRecord> {
    const now = clock();
    const saved = await deps.db.transaction(async (trx) => {
      if (!(await accounts.markProvisioned(accountId, provisionedFields(result), now, trx))) return false;
      if (trialUser) await trx('user_profiles').where({ id: trialUser.id }).update({ trial_used: true, updated_at: now });
      return true;
    });
    const account = await accounts.findById(accountId);
    if (!saved && !(account?.masterServerId === result.server.id && account.username === result.username)) throw new AccountNoLongerWaiting(accountId);
    if (saved && trialUser) deps.userChanged(trialUser.id);
    if (saved) await accounts.insertLog({ accountId, userId: trialUser?.id ?? null, step: 'account_created', status: 'success', details: { serverId: result.server.id, username: result.username }, now });
    return account!;
  }

  /**
   * After a failure: a panel user that was created is handed to a cleanup job, and the row, if it still
   * waits, goes (a trial's claim with it). If even that fails (the database is down), the row keeps its
   * intent and the sweep of stuck accounts finishes the job later.
   */
  async function abandon(accountId: string, created: Provisioned | undefined): Promise<void> {
    try {
      if (created) await deps.provisioner.releaseCreated(accountId, created);
      await accounts.removeIfSuspended(accountId);
    } catch (err) {
      deps.log.error({ accountId, err: err instanceof Error ? err.message : err }, 'could not undo a failed account creation; the sweep of stuck accounts will');
    }
  }

  /**
   * Reserves the row, creates the panel user (the row records where, first), saves the result; on a
   * failure nothing is left behind, and after a crash the sweep of stuck accounts adopts or removes it.
   */
  async function createAccount(owner: UserProfile, input: {
    planId: string | null; trial: boolean; dataLimitBytes: number | null; expiresAt: Date | null; deviceLimit: number | null;
    candidates: Awaited<ReturnType<Provisioner['candidateServers']>>;
  }) {
    const id = randomUUID();
    const username = generateUsername();
    try {
      await accounts.insertPending({
        id, userId: owner.id, planId: input.planId, username, subToken: generateSubToken(), trialUserId: input.trial ? owner.id : null, deviceLimit: input.deviceLimit,
      }, clock());
    } catch (err) {
      if (input.trial && isUniqueViolation(err)) throw new AppError(409, 'trial_used', ACCOUNT_MESSAGES.trialUsed);
      throw err;
    }
    await crashPoint('account:after-insert');
    let created: Provisioned | undefined;
    let saved: AccountRecord;
    try {
      created = await deps.provisioner.provision({ accountId: id, userId: owner.id, username, dataLimitBytes: input.dataLimitBytes, expiresAt: input.expiresAt }, input.candidates);
      saved = await completeProvisioning(id, created, input.trial ? owner : null);
    } catch (err) {
      await abandon(id, created);
      if (err instanceof AccountNoLongerWaiting) throw new AppError(503, 'service_unavailable', ACCOUNT_MESSAGES.serviceUnavailable);
      throw err;
    }
    await crashPoint('account:after-save');
    return toVpnAccount(saved, await shownSettings());
  }

  /** The settings that decide what a customer is shown of an account. */
  const shownSettings = async (): Promise<ShownSettings> => {
    const { trialPlanId, renewalGraceDays, subscriptionDomains } = await deps.settings.getAppSettings();
    return { trialPlanId, renewalGraceDays, subLinkBase: subLinkBaseOf(subscriptionDomains ?? []) };
  };

  /** The user's accounts as the dashboard shows them, and until when that answer holds if nothing is committed. */
  async function readOwnList(userId: string): Promise<{ json: KeptJson; expiresAt: number }> {
    const [own, shown] = await Promise.all([listOwn(userId), shownSettings()]);
    const at = clock().getTime();
    const answer = (list: VpnAccount[], expiresAt: number) => ({ json: new KeptJson(serializeAccountList(list)), expiresAt });
    // Most visits find every account's usage fresh: those answer without a promise per account.
    if (!own.some((account) => needsUsage(account, at))) return answer(own.map((account) => toVpnAccount(account, shown)), Math.min(...own.map(usageFreshUntil)));
    // A usage answer saved is a commit (the next visit reads again); one the panel could not give is asked again next visit.
    const refreshed = await Promise.all(own.map((account) => refreshUsage(account, at)));
    return answer(refreshed.map(({ account, stale }) => toVpnAccount(account, shown, stale)), refreshed.some(({ stale }) => stale) ? 0 : Math.min(...refreshed.map(({ account }) => usageFreshUntil(account))));
  }
  // Kept per user until a commit (of this instance or another: an account claimed, paid, synced, a setting or plan
  // changed) or until an account's usage is due to be asked again: a dashboard asked again meanwhile is sent as it was.
  // The servers' and plans' versions are in the key: a list read before this instance heard of another's change to
  // them (its names come from those kept reads) is not sent once it has.
  const keptList = deps.commitToken
    ? keptUntilCommit(deps.commitToken, (key: string) => readOwnList(key.slice(0, key.indexOf('\n'))), {
      maxKeys: LISTS_KEPT, expiresAt: (kept) => kept.expiresAt, now: () => clock().getTime(),
    })
    : undefined;

  return {
    /** The user's accounts, newest first, as the JSON of a VpnAccount[] (usage asked of the panel when out of date). */
    async listAccountsJson(userId: string): Promise<KeptJson> {
      if (!keptList) return (await readOwnList(userId)).json;
      return (await keptList(`${userId}\n${deps.serversVersion?.() ?? 0}\n${deps.plansVersion?.() ?? 0}`)).json;
    },

    /** A user's accounts as last synced (no panel call): the admin's user page. */
    async listStoredAccounts(userId: string): Promise<VpnAccount[]> {
      const [own, shown] = await Promise.all([listOwn(userId), shownSettings()]);
      return own.map((account) => toVpnAccount(account, shown));
    },

    /** One of the caller's accounts as the API shows it (no panel call); someone else's is undefined. */
    async findAccount(userId: string, id: string): Promise<VpnAccount | undefined> {
      const account = await accounts.findForUser(id, userId);
      return account && toVpnAccount(account, await shownSettings());
    },

    /** A free plan or the trial; a paid plan needs checkout. */
    async claimPlan(user: UserProfile, planId: string): Promise<VpnAccount> {
      const plan = await deps.plans.findById(planId);
      if (!plan || plan.status !== 'active') throw notFound('Plan not found');
      const trial = isTrialPlan(plan, (await deps.settings.getAppSettings()).trialPlanId);
      if (!trial && plan.price > 0) throw new AppError(402, 'payment_required', 'This plan is paid: buy it by card.');
      if (trial && user.trialUsed) throw new AppError(409, 'trial_used', ACCOUNT_MESSAGES.trialUsed);
      const candidates = await deps.provisioner.candidateServers(plan.locations);
      return createAccount(user, {
        planId: plan.id, trial, dataLimitBytes: plan.dataLimitBytes, expiresAt: expiryAfterDays(clock(), plan.days), deviceLimit: plan.deviceLimit, candidates,
      });
    },

    /** The admin's custom account on a chosen server, for the admin unless another user is named. */
    async createCustomAccount(admin: UserProfile, body: AdminCreateAccountBody): Promise<VpnAccount> {
      const owner = body.userId ? await deps.users.findById(body.userId) : admin;
      if (!owner) throw validationFailed({ userId: 'User not found' }, 'User not found');
      const server = await deps.servers.findServerRecord(body.serverId);
      if (!server || server.status !== 'active') throw validationFailed({ serverId: 'Select an active server' }, 'Select an active server');
      return createAccount(owner, {
        planId: null, trial: false, dataLimitBytes: body.dataLimitGb * BYTES_PER_GB, expiresAt: expiryAfterDays(clock(), body.expireDays), deviceLimit: null, candidates: [server],
      });
    },

    /** Deletes the panel user first (already gone is fine), then the row. */
    async deleteAccount(user: UserProfile, id: string): Promise<void> {
      const account = await accounts.findForUser(id, user.id);
      if (!account) throw notFound('Account or master server not found');
      if (account.status === 'suspended') throw new AppError(409, 'account_suspended', 'This account is waiting for its payment and cannot be deleted yet.');
      await deps.closeOpenCheckouts(id);
      const server = account.masterServerId ? await deps.servers.findServerRecord(account.masterServerId) : undefined;
      if (server) {
        try {
          const { alreadyGone } = await deps.servers.driverFor(server).deleteAccount(account.username);
          await accounts.insertLog({ accountId: id, userId: user.id, step: 'delete_panel_user', status: 'success', details: { serverId: server.id, username: account.username, alreadyGone }, now: clock() });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          await accounts.insertLog({ accountId: id, userId: user.id, step: 'delete_panel_user', status: 'failure', details: { serverId: server.id, username: account.username, message }, now: clock() });
          const unreachable = err instanceof PanelError && err.retryable;
          throw new AppError(unreachable ? 503 : 502, 'panel_error', unreachable ? ACCOUNT_MESSAGES.serviceUnavailable : `Failed to delete user from master server: ${message}`);
        }
      }
      await accounts.remove(id);
      await accounts.insertLog({ accountId: id, userId: user.id, step: 'delete_account', status: 'success', details: { username: account.username }, now: clock() });
    },

    async listLogs(limit: number) {
      return accounts.listLogs(limit);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
