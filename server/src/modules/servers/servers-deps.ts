import type { FastifyBaseLogger } from 'fastify';
import { notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Keys } from '../../lib/crypto.js';
import type { DriverRegistry } from '../../panels/driver-registry.js';
import type { AuditRepo } from '../audit/index.js';
import type { Actor } from '../users/index.js';
import type { PanelUrlCheck } from './panel-address.js';
import type { ServerRecord, ServersRepo } from './servers.repo.js';

/** What the server use cases (server-connections.ts, server-admin.ts) work with, and the two lookups they share. */

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
  /** The names of the plans that list a server (shared/plan-servers.ts): it cannot be deleted while any does. */
  plansListing?: (serverId: string) => Promise<string[]>;
}

/** The dependencies with the URL check settled (the default one made once, when the service is). */
export type ServersContext = ServersServiceDeps & { checkPanelUrl: PanelUrlCheck };

export async function loadServer(deps: ServersContext, id: string): Promise<ServerRecord> {
  const server = await deps.servers.findById(id);
  if (!server) throw notFound('Server not found.');
  return server;
}

export const recordServerAction = (deps: ServersContext, actor: Actor, action: string, id: string, details: Record<string, unknown> = {}) =>
  deps.audit.record({
    actorId: actor.id,
    actorEmail: actor.email,
    action,
    targetType: 'server',
    targetId: id,
    details,
    ip: actor.ip ?? null,
    now: deps.clock(),
  });
