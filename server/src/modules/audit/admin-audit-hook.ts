import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from '../../lib/clock.js';
import { maskSecrets, runInAuditContext, type AuditRequestContext } from './audit-context.js';
import type { AuditRepo } from './audit.repo.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on a staff POST, PUT, PATCH or DELETE under /api/admin: whether an audit entry was written for it. */
    auditContext: AuditRequestContext | null;
  }
}

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What a route's target is called in the log, by the area of its path (a user's entries show on their page). */
const TARGET_TYPES: Record<string, string> = { users: 'user', accounts: 'account', plans: 'plan', servers: 'server', 'add-ons': 'add_on' };

/**
 * `admin.<area>[.<sub-path>].<verb>` for a route pattern: `POST /api/admin/plans` is `admin.plans.create`,
 * `PATCH /api/admin/plans/:id` `admin.plans.update`, `POST /api/admin/servers/:id/disable` `admin.servers.disable`,
 * `PUT /api/admin/payments/card` `admin.payments.card.update`.
 */
export function adminActionOf(method: string, pattern: string): string {
  const [area = 'admin', ...rest] = pattern
    .replace(/^\/api\/admin\//, '')
    .split('/')
    .filter((part) => part !== '' && !part.startsWith(':'));
  const verb = method === 'DELETE' ? 'delete' : method === 'POST' ? (rest.length === 0 ? 'create' : '') : 'update';
  return ['admin', area, ...rest, verb].filter((part) => part !== '').join('.');
}

/** The record a route's path names (its `:id`, and a device's id beside it). */
function targetOf(request: FastifyRequest): { targetType?: string; targetId?: string } {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const area = (request.routeOptions.url ?? '').split('/')[3] ?? '';
  if (typeof params.id !== 'string') return {};
  return { targetType: TARGET_TYPES[area] ?? area, targetId: params.id };
}

/**
 * Every staff change is in the audit log. A service that records its own entry keeps it (an entry written during the
 * request marks it, and gets the request's masked body as its `after` when it does not say what changed); for any
 * other admin POST, PUT, PATCH or DELETE that succeeded, one generic entry `admin.<area>.<verb>` is written with the
 * route, the target and the masked body as `after`. Secrets in bodies are stored as "changed", never as values.
 */
export const adminAuditPlugin = fp(
  async (app: FastifyInstance, opts: { audit: AuditRepo; clock: Clock }) => {
    app.decorateRequest('auditContext', null);

    app.addHook('onRequest', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const pattern = request.routeOptions.url ?? '';
      if (!MUTATIONS.has(request.method) || !pattern.startsWith('/api/admin/')) return done();
      const context: AuditRequestContext = { route: `${request.method} ${pattern}`, recorded: false };
      request.auditContext = context;
      runInAuditContext(context, done);
    });

    app.addHook('preHandler', async (request) => {
      if (request.auditContext && request.body !== undefined) request.auditContext.after = maskSecrets(request.body);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const context = request.auditContext;
      const actor = request.auth?.user;
      if (!context || context.recorded || !actor || reply.statusCode >= 400) return payload;
      context.recorded = true;
      const pattern = request.routeOptions.url ?? '';
      const params = (request.params ?? {}) as Record<string, unknown>;
      try {
        await opts.audit.record({
          actorId: actor.id,
          actorEmail: actor.email,
          action: adminActionOf(request.method, pattern),
          ...targetOf(request),
          details: {
            route: context.route,
            ...(typeof params.deviceId === 'string' ? { deviceId: params.deviceId } : {}),
            after: context.after ?? null,
          },
          ip: request.ip ?? null,
          now: opts.clock(),
        });
      } catch (err) {
        request.log.error({ err, route: context.route }, 'the audit entry of a staff action could not be written');
      }
      return payload;
    });
  },
  { name: 'admin-audit', dependencies: ['auth'] },
);
