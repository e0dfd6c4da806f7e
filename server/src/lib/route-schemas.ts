import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Who may call a route: any signed-in user, or an admin. */
export type RouteAccess = 'user' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `requireAccess`: the OpenAPI document gives the route its security and its 401 (and 403). */
    access?: RouteAccess;
  }
}

/**
 * The app with its routes typed by their zod schemas: `typed(app).post(path, { schema: { body: PlanBody } }, …)` gives
 * the handler `request.body` as the schema's output, checked before the handler runs (plugins/openapi.ts) and
 * described in the OpenAPI document.
 */
export const typed = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();

/** A `204` answers nothing (the document's description of it). */
export const NoContent = z.null().describe('No content');

/** A route's `:id`. */
export const IdParams = z.object({ id: z.string() });

/**
 * Every route the plugin adds after this call needs a signed-in user (or an admin): checked before the route's
 * input (a 401 or 403 tells a stranger nothing about what the route takes), and stated in the OpenAPI document.
 */
export function requireAccess(app: FastifyInstance, access: RouteAccess) {
  app.addHook('preValidation', access === 'admin' ? app.requireAdmin : app.requireUser);
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, access };
  });
}
