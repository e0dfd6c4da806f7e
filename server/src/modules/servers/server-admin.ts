import { randomUUID } from 'node:crypto';
import {
  SERVER_MESSAGES,
  usesApiToken,
  type AdminServer,
  type CreateServerBody,
  type ServerConnectionBody,
  type UpdateServerBody,
} from '../../../../shared/servers.js';
import { AppError, notFound } from '../../errors.js';
import { decryptSecret, encryptSecret } from '../../lib/crypto.js';
import type { PanelService } from '../../panels/panel-driver.js';
import type { Actor } from '../users/index.js';
import {
  connectionFor,
  connectionOf,
  driverFor,
  panelFailure,
  requireKnownService,
  secretOf,
  testAndListServices,
  updatedConnection,
} from './server-connections.js';
import { loadServer, recordServerAction, type ServersContext } from './servers-deps.js';
import type { ServerRecord } from './servers.repo.js';

/** The admin's servers: listed, tested, added, edited, removed, switched on and off, and their panels' services. */

export const toAdminServer = (server: ServerRecord): AdminServer => ({
  id: server.id,
  kind: server.kind,
  name: server.name,
  publicName: server.publicName,
  publicNameTranslations: server.publicNameTranslations,
  url: server.url,
  username: server.username,
  serviceId: server.serviceId,
  locations: server.locations,
  premium: server.premium,
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

export async function listServers(deps: ServersContext): Promise<AdminServer[]> {
  return (await deps.servers.list()).map(toAdminServer);
}

/** With a `serviceId`, also checks that this panel admin may assign it. */
export async function testServerConnection(deps: ServersContext, body: ServerConnectionBody): Promise<{ services: PanelService[] }> {
  const connection = { kind: body.kind, ...connectionFor(body.kind, { ...body, secret: secretOf(body), serviceId: body.serviceId ?? '' }) };
  return { services: await testAndListServices(deps, connection, SERVER_MESSAGES.testFailed) };
}

export async function createServer(deps: ServersContext, actor: Actor, body: CreateServerBody): Promise<AdminServer> {
  const { servers, clock } = deps;
  const secret = secretOf(body);
  const connection = { kind: body.kind, ...connectionFor(body.kind, { ...body, secret }) };
  requireKnownService(await testAndListServices(deps, connection, SERVER_MESSAGES.testFailed), body.serviceId);
  const now = clock();
  const server = await servers.insert(
    randomUUID(),
    {
      kind: body.kind,
      name: body.name,
      publicName: body.publicName ?? null,
      publicNameTranslations: body.publicNameTranslations ?? {},
      url: body.url,
      username: connection.username,
      passwordEncrypted: encryptSecret(deps.keys.encryption, secret),
      serviceId: body.serviceId,
      locations: body.locations,
      premium: body.premium,
      status: 'active',
      lastCheck: now,
      tokenExpiresAt: usesApiToken(body.kind) && body.apiTokenExpiresAt ? new Date(body.apiTokenExpiresAt) : null,
    },
    now,
  );
  deps.onChange?.();
  // It just answered the credential test: up from the start (the admin set it up, no mail).
  await servers.recordCheckSuccess(server.id, null, now);
  await recordServerAction(deps, actor, 'server.create', server.id, { name: server.name, kind: server.kind });
  return toAdminServer((await servers.findById(server.id))!);
}

export async function updateServer(deps: ServersContext, actor: Actor, id: string, patch: UpdateServerBody): Promise<AdminServer> {
  const { servers, clock } = deps;
  const existing = await loadServer(deps, id);
  const kind = patch.kind ?? existing.kind;
  const savedSecret = decryptSecret(deps.keys.encryption, existing.passwordEncrypted);
  const { secret, next } = updatedConnection(existing, patch, savedSecret);
  const secretChanged = secret !== savedSecret;
  const connectionChanged =
    next.kind !== existing.kind || next.url !== existing.url || next.username !== existing.username || secretChanged || next.serviceId !== existing.serviceId;
  const now = clock();
  if (connectionChanged) requireKnownService(await testAndListServices(deps, next, SERVER_MESSAGES.testFailed), next.serviceId);
  const updated = await servers.update(
    id,
    {
      kind: next.kind,
      url: next.url,
      username: next.username,
      serviceId: next.serviceId,
      ...(secretChanged ? { passwordEncrypted: encryptSecret(deps.keys.encryption, secret) } : {}),
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.publicName !== undefined ? { publicName: patch.publicName } : {}),
      ...(patch.publicNameTranslations !== undefined ? { publicNameTranslations: patch.publicNameTranslations } : {}),
      ...(patch.locations !== undefined ? { locations: patch.locations } : {}),
      ...(patch.premium !== undefined ? { premium: patch.premium } : {}),
      ...(patch.apiTokenExpiresAt !== undefined
        ? { tokenExpiresAt: patch.apiTokenExpiresAt && usesApiToken(kind) ? new Date(patch.apiTokenExpiresAt) : null }
        : {}),
      // A new token without a new end date: the old token's end is not this one's.
      ...(patch.apiTokenExpiresAt === undefined && patch.apiToken !== undefined && secretChanged ? { tokenExpiresAt: null } : {}),
      ...(!usesApiToken(kind) ? { tokenExpiresAt: null } : {}),
      ...(connectionChanged ? { lastCheck: now } : {}),
    },
    now,
  );
  if (!updated) throw notFound('Server not found.');
  deps.onChange?.();
  if (connectionChanged) await servers.recordCheckSuccess(id, null, now);
  await recordServerAction(deps, actor, 'server.update', id, { fields: Object.keys(patch) });
  return toAdminServer(connectionChanged ? (await servers.findById(id))! : updated);
}

export async function deleteServer(deps: ServersContext, actor: Actor, id: string): Promise<void> {
  const { servers } = deps;
  const server = await loadServer(deps, id);
  const accounts = await servers.countAccounts(id);
  if (accounts > 0) {
    throw new AppError(
      409,
      'server_in_use',
      `This server still holds ${accounts} VPN account${accounts === 1 ? '' : 's'}. Delete them first, or disable the server instead.`,
    );
  }
  const plans = (await deps.plansListing?.(id)) ?? [];
  if (plans.length > 0) {
    const listing = plans.length === 1 ? `The plan ${plans[0]} lists` : `The plans ${plans.join(', ')} list`;
    throw new AppError(409, 'server_in_use', `${listing} this server. Take it off ${plans.length === 1 ? 'it' : 'them'} first, or disable the server instead.`);
  }
  await servers.remove(id);
  deps.onChange?.();
  await recordServerAction(deps, actor, 'server.delete', id, { name: server.name });
}

/** Enable needs a passing credential test first; it refreshes the token and lastCheck. */
export async function enableServer(deps: ServersContext, actor: Actor, id: string): Promise<AdminServer> {
  const { servers, clock } = deps;
  const server = await loadServer(deps, id);
  await testAndListServices(deps, { kind: server.kind, ...connectionOf(deps, server) }, SERVER_MESSAGES.activateFailed);
  await servers.update(id, { status: 'active', lastCheck: clock() }, clock());
  await servers.recordCheckSuccess(id, null, clock());
  await recordServerAction(deps, actor, 'server.enable', id);
  return toAdminServer((await servers.findById(id))!);
}

export async function disableServer(deps: ServersContext, actor: Actor, id: string): Promise<AdminServer> {
  const { servers, clock } = deps;
  await loadServer(deps, id);
  const updated = await servers.update(id, { status: 'disabled', lastCheck: clock() }, clock());
  await recordServerAction(deps, actor, 'server.disable', id);
  return toAdminServer(updated!);
}

export async function listPanelServices(deps: ServersContext, id: string): Promise<PanelService[]> {
  const server = await loadServer(deps, id);
  try {
    return await driverFor(deps, server).listServices();
  } catch (err) {
    deps.log.warn({ err: err instanceof Error ? err.message : err, serverId: id }, 'listing panel services failed');
    throw panelFailure(err, 'Failed to fetch services from the panel.', 'panel_error');
  }
}
