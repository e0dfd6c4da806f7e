import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { SERVER_MESSAGES, missingCredentials, usesApiToken, type AdminServer, type CreateServerBody, type PanelKindName, type ServerConnectionBody, type UpdateServerBody } from '../../../../shared/servers.js';
import { AppError, notFound, validationFailed } from '../../errors.js';
import type { ErrorCode } from '../../../../shared/errors.js';
import type { Clock } from '../../lib/clock.js';
import { decryptSecret, encryptSecret, type Keys } from '../../lib/crypto.js';
import type { DriverRegistry } from '../../panels/driver-registry.js';
import { PanelError, type PanelConnection, type PanelDriver, type PanelService } from '../../panels/panel-driver.js';
import type { AuditRepo } from '../audit/audit.repo.js';
import type { Actor } from '../users/users.service.js';
import { checkSubscriptionRoute } from '../../panels/subscription-route-check.js';
import { createPanelUrlCheck, type PanelUrlCheck } from './panel-address.js';
import type { ServerRecord, ServersRepo } from './servers.repo.js';

export const toAdminServer = (server: ServerRecord): AdminServer => ({
  id: server.id,
  kind: server.kind,
  name: server.name,
  publicName: server.publicName,
  url: server.url,
  username: server.username,
  serviceId: server.serviceId,
  locations: server.locations,
  status: server.status,
  lastCheck: server.lastCheck?.toISOString() ?? null,
  apiTokenExpiresAt: server.tokenExpiresAt?.toISOString() ?? null,
  health: {
    state: server.health.state,
    latencyMs: server.health.latencyMs,
    lastError: server.health.error,
    checkedAt: server.health.checkedAt?.toISOString() ?? null,
    since: server.health.changedAt?.toISOString() ?? null,
  },
  createdAt: server.createdAt.toISOString(),
  updatedAt: server.updatedAt.toISOString(),
});

/** The one secret a server keeps (encrypted): the API token of a token panel, else the admin's password. */
const secretOf = (body: { kind?: PanelKindName; password?: string; apiToken?: string }): string =>
  (usesApiToken(body.kind ?? 'marzneshin') ? body.apiToken : body.password) ?? '';

/** What a driver needs: a token panel gets its token and no login; the others a username and password. */
function connectionFor(kind: PanelKindName, fields: { url: string; username?: string; secret: string; serviceId: string }): PanelConnection {
  return usesApiToken(kind)
    ? { url: fields.url, username: '', password: '', apiToken: fields.secret, serviceId: fields.serviceId }
    : { url: fields.url, username: fields.username ?? '', password: fields.secret, serviceId: fields.serviceId };
}

/** Panel failures an admin can fix (credentials, URL) are 400; a panel that does not answer is 502. */
function panelFailure(err: unknown, message: string, code: ErrorCode): AppError {
  const unreachable = err instanceof PanelError && err.retryable;
  return new AppError(unreachable ? 502 : 400, code, message);
}

/**
 * The credential test failed: an admin that may not use the service is told exactly that, on the field;
 * refused credentials get the spec's message; anything else (no answer, a dropped connection, not a panel of
 * this kind) gets it followed by what the driver found, so the admin knows what to fix.
 */
function credentialTestFailure(err: unknown, message: string): AppError {
  if (err instanceof PanelError && err.kind === 'not_permitted') {
    return new AppError(400, 'connection_test_failed', err.message, { fields: { serviceId: err.message } });
  }
  const reason = err instanceof PanelError && err.kind !== 'auth' ? ` ${err.message.replace(/\.?$/, '.')}` : '';
  return panelFailure(err, `${message}${reason}`, 'connection_test_failed');
}

export interface ServersServiceDeps {
  servers: ServersRepo;
  drivers: DriverRegistry;
  audit: AuditRepo;
  keys: Keys;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Refuses panel URLs this server must not call (link-local, cloud metadata). Default: refuse them all. */
  checkPanelUrl?: PanelUrlCheck;
  /** A server was added, edited or removed: what customers see of it (its public name, its number) follows, on every instance. */
  onChange?: () => void;
}

function requireKnownService(services: PanelService[], serviceId: string): void {
  if (!services.some((service) => service.id === serviceId)) {
    throw validationFailed({ serviceId: 'The panel has no service with this ID. Pick one from its list.' }, 'The panel has no service with this ID. Pick one from its list.');
  }
}

/**
 * The connection an update asks for, and its secret: what the admin typed, else what is saved; a change of kind
 * between a token panel and a login panel needs the other credentials typed anew.
 */
function updatedConnection(existing: ServerRecord, patch: UpdateServerBody, savedSecret: string): { secret: string; next: PanelConnection & { kind: ServerRecord['kind'] } } {
  const kind = patch.kind ?? existing.kind;
  const sameCredentials = usesApiToken(kind) === usesApiToken(existing.kind);
  const typed = { username: patch.username ?? (sameCredentials ? existing.username : undefined), password: patch.password, apiToken: patch.apiToken };
  const secret = secretOf({ kind, ...typed }) || (sameCredentials ? savedSecret : '');
  const missing = missingCredentials({ kind, username: typed.username, password: secret, apiToken: secret });
  if (Object.keys(missing).length > 0) throw validationFailed(missing, Object.values(missing)[0]);
  return { secret, next: { kind, ...connectionFor(kind, { url: patch.url ?? existing.url, username: typed.username, secret, serviceId: patch.serviceId ?? existing.serviceId }) } };
}

export function createServersService(deps: ServersServiceDeps) {
  const { servers, drivers, clock, log } = deps;
  const checkPanelUrl = deps.checkPanelUrl ?? createPanelUrlCheck({ allowLinkLocal: false });

  const connectionOf = (server: ServerRecord): PanelConnection =>
    connectionFor(server.kind, { url: server.url, username: server.username, secret: decryptSecret(deps.keys.encryption, server.passwordEncrypted), serviceId: server.serviceId });

  /**
   * The credential test: checks the URL may be called at all, then logs in (with the admin's rights
   * for the connection's service), lists the panel's services, and fetches a user's subscription the
   * way `/sub` will.
   */
  async function testAndListServices(connection: PanelConnection & { kind: ServerRecord['kind'] }, message: string): Promise<PanelService[]> {
    await checkPanelUrl(connection.url);
    const driver = drivers.create(connection.kind, connection);
    try {
      await driver.testConnection();
      const services = await driver.listServices();
      await checkSubscriptionRoute(driver, connection.url);
      return services;
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.message : err }, 'panel connection test failed');
      throw credentialTestFailure(err, message);
    }
  }

  async function load(id: string): Promise<ServerRecord> {
    const server = await servers.findById(id);
    if (!server) throw notFound('Server not found.');
    return server;
  }

  const record = (actor: Actor, action: string, id: string, details: Record<string, unknown> = {}) =>
    deps.audit.record({ actorId: actor.id, actorEmail: actor.email, action, targetType: 'server', targetId: id, details, ip: actor.ip ?? null, now: clock() });

  return {
    /** A driver for a saved server (used by provisioning too). */
    driverFor(server: ServerRecord): PanelDriver {
      return drivers.forServer(server, () => connectionOf(server));
    },

    async listServerRecords(): Promise<ServerRecord[]> {
      return servers.list();
    },

    async findServerRecord(id: string): Promise<ServerRecord | undefined> {
      return servers.findById(id);
    },

    async listServers(): Promise<AdminServer[]> {
      return (await servers.list()).map(toAdminServer);
    },

    /** With a `serviceId`, also checks that this panel admin may assign it. */
    async testConnection(body: ServerConnectionBody): Promise<{ services: PanelService[] }> {
      const connection = { kind: body.kind, ...connectionFor(body.kind, { ...body, secret: secretOf(body), serviceId: body.serviceId ?? '' }) };
      return { services: await testAndListServices(connection, SERVER_MESSAGES.testFailed) };
    },

    async createServer(actor: Actor, body: CreateServerBody): Promise<AdminServer> {
      const secret = secretOf(body);
      const connection = { kind: body.kind, ...connectionFor(body.kind, { ...body, secret }) };
      requireKnownService(await testAndListServices(connection, SERVER_MESSAGES.testFailed), body.serviceId);
      const now = clock();
      const server = await servers.insert(randomUUID(), {
        kind: body.kind, name: body.name, publicName: body.publicName ?? null, url: body.url, username: connection.username,
        passwordEncrypted: encryptSecret(deps.keys.encryption, secret),
        serviceId: body.serviceId, locations: body.locations, status: 'active', lastCheck: now,
        tokenExpiresAt: usesApiToken(body.kind) && body.apiTokenExpiresAt ? new Date(body.apiTokenExpiresAt) : null,
      }, now);
      deps.onChange?.();
      // It just answered the credential test: up from the start (the admin set it up, no mail).
      await servers.recordCheckSuccess(server.id, null, now);
      await record(actor, 'server.create', server.id, { name: server.name, kind: server.kind });
      return toAdminServer((await servers.findById(server.id))!);
    },

    async updateServer(actor: Actor, id: string, patch: UpdateServerBody): Promise<AdminServer> {
      const existing = await load(id);
      const kind = patch.kind ?? existing.kind;
      const savedSecret = decryptSecret(deps.keys.encryption, existing.passwordEncrypted);
      const { secret, next } = updatedConnection(existing, patch, savedSecret);
      const secretChanged = secret !== savedSecret;
      const connectionChanged =
        next.kind !== existing.kind || next.url !== existing.url || next.username !== existing.username || secretChanged || next.serviceId !== existing.serviceId;
      const now = clock();
      if (connectionChanged) requireKnownService(await testAndListServices(next, SERVER_MESSAGES.testFailed), next.serviceId);
      const updated = await servers.update(id, {
        kind: next.kind, url: next.url, username: next.username, serviceId: next.serviceId,
        ...(secretChanged ? { passwordEncrypted: encryptSecret(deps.keys.encryption, secret) } : {}),
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.publicName !== undefined ? { publicName: patch.publicName } : {}),
        ...(patch.locations !== undefined ? { locations: patch.locations } : {}),
        ...(patch.apiTokenExpiresAt !== undefined ? { tokenExpiresAt: patch.apiTokenExpiresAt && usesApiToken(kind) ? new Date(patch.apiTokenExpiresAt) : null } : {}),
        // A new token without a new end date: the old token's end is not this one's.
        ...(patch.apiTokenExpiresAt === undefined && patch.apiToken !== undefined && secretChanged ? { tokenExpiresAt: null } : {}),
        ...(!usesApiToken(kind) ? { tokenExpiresAt: null } : {}),
        ...(connectionChanged ? { lastCheck: now } : {}),
      }, now);
      if (!updated) throw notFound('Server not found.');
      deps.onChange?.();
      if (connectionChanged) await servers.recordCheckSuccess(id, null, now);
      await record(actor, 'server.update', id, { fields: Object.keys(patch) });
      return toAdminServer(connectionChanged ? (await servers.findById(id))! : updated);
    },

    async deleteServer(actor: Actor, id: string): Promise<void> {
      const server = await load(id);
      const accounts = await servers.countAccounts(id);
      if (accounts > 0) {
        throw new AppError(409, 'server_in_use', `This server still holds ${accounts} VPN account${accounts === 1 ? '' : 's'}. Delete them first, or disable the server instead.`);
      }
      await servers.remove(id);
      deps.onChange?.();
      await record(actor, 'server.delete', id, { name: server.name });
    },

    /** Enable needs a passing credential test first; it refreshes the token and lastCheck. */
    async enableServer(actor: Actor, id: string): Promise<AdminServer> {
      const server = await load(id);
      await testAndListServices({ kind: server.kind, ...connectionOf(server) }, SERVER_MESSAGES.activateFailed);
      await servers.update(id, { status: 'active', lastCheck: clock() }, clock());
      await servers.recordCheckSuccess(id, null, clock());
      await record(actor, 'server.enable', id);
      return toAdminServer((await servers.findById(id))!);
    },

    async disableServer(actor: Actor, id: string): Promise<AdminServer> {
      await load(id);
      const updated = await servers.update(id, { status: 'disabled', lastCheck: clock() }, clock());
      await record(actor, 'server.disable', id);
      return toAdminServer(updated!);
    },

    async listPanelServices(id: string): Promise<PanelService[]> {
      const server = await load(id);
      try {
        return await this.driverFor(server).listServices();
      } catch (err) {
        log.warn({ err: err instanceof Error ? err.message : err, serverId: id }, 'listing panel services failed');
        throw panelFailure(err, 'Failed to fetch services from the panel.', 'panel_error');
      }
    },
  };
}

export type ServersService = ReturnType<typeof createServersService>;
