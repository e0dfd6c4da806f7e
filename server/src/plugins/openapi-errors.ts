import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';
import { ERRORS, type ErrorCode } from '../../../shared/errors.js';
import { STAFF_ROLES } from '../../../shared/auth.js';
import { can } from '../../../shared/staff.js';
import type { RouteAccess } from '../lib/route-schemas.js';
import { routePermissions } from '../lib/staff-policy.js';
import { isLimiterHook } from './rate-limit.js';

/** The failure every route answers with (`{ code, message }`, + the fields some codes carry), as the document shows it. */
const ApiErrorSchema = z.object({
  code: z.enum(Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional().describe('validation_failed: field → what is wrong with it'),
  codeStatus: z.object({}).passthrough().optional().describe('invalid_code: why, and when a new code may be asked for'),
  rows: z.array(z.object({}).passthrough()).optional().describe('import_invalid: the rows that cannot be taken'),
  reason: z.string().optional().describe('promo_invalid: why the code cannot be used'),
  needed: z.number().int().optional().describe('insufficient_balance: what the wallet is short of, in minor units'),
});

/** The failure's schema, written once in the document's components; each route's failures refer to it. */
export const API_ERROR_COMPONENT = (({ $schema: _, ...schema }) => schema)(z.toJSONSchema(ApiErrorSchema, { target: 'draft-2020-12' })) as { type: 'object' };

const failure = (description: string) => ({ $ref: '#/components/schemas/ApiError', description });

/** Who may call the route: its plugin's `requireAccess`, or its own `preValidation` hook. */
function accessOf(app: FastifyInstance, route: RouteOptions): RouteAccess | undefined {
  if (route.config?.access) return route.config.access;
  const hooks = [route.preValidation].flat();
  if (hooks.includes(app.requireAdmin)) return 'admin';
  return hooks.includes(app.requireUser) ? 'user' : undefined;
}

/**
 * The failures a route can answer, for the document (not its serialisation: answers are not changed by this): a
 * 400 when it takes input, 401/403 when it needs a user or an admin (with the route's security), 404 for a record
 * it names, 429 under a rate limit, and every other code of the catalogue as the default answer.
 */
export function describeFailures(app: FastifyInstance, route: RouteOptions, schema: Record<string, unknown>): Record<string, unknown> {
  const access = accessOf(app, route);
  const errors: Record<string, unknown> = {};
  if (schema.body || schema.querystring)
    errors['400'] = failure('`validation_failed`: `fields` names each bad field (or `invalid_body`: the body is not JSON).');
  if (access) errors['401'] = failure('`unauthenticated`: not signed in, or the session ended.');
  if (access === 'admin')
    errors['403'] = failure('`forbidden`: signed in, but not staff (or `csrf_failed`); `role_forbidden`: staff whose role is not in `x-roles`.');
  else if (access && route.method !== 'GET') errors['403'] = failure('`csrf_failed`: a change sent with the session cookie from another site.');
  if (route.url.includes(':')) errors['404'] = failure("`not_found`: no such record, or it is someone else's.");
  if ([route.onRequest, route.preValidation].flat().some(isLimiterHook)) errors['429'] = failure('`rate_limited`: try again after `Retry-After` seconds.');
  errors.default = failure('Any other failure: a `code` of the catalogue (shared/errors.ts, docs/api.md) and a message to show.');
  const security = access ? { security: [{ session: [] }, { bearer: [] }] } : {};
  const roles = access === 'admin' ? { 'x-roles': staffRolesOf(route) } : {};
  return { ...schema, ...security, ...roles, response: { ...errors, ...(schema.response as Record<string, unknown> | undefined) } };
}

/** The staff roles the policy lets call an admin route (any of them, where the body decides: a role change). */
function staffRolesOf(route: RouteOptions): string[] {
  const permissions = [route.method].flat().flatMap((method) => routePermissions(method, route.url));
  return STAFF_ROLES.filter((role) => permissions.some((permission) => can(role, permission)));
}
