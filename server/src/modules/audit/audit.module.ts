import type { platformModule } from '../../platform.module.js';
import { defineModule, route, type Core, type Provided } from '../module.js';
import { adminAuditRoutes } from './audit.routes.js';
import { createAuditService } from './audit.service.js';

/**
 * The Audit section (the log itself is the platform's: every module writes to it, and app.ts audits every staff
 * change): the log filtered, paged and exported as CSV.
 */
export const auditModule = defineModule({
  name: 'audit',
  build: ({ audit, usersRepo, clock }: Core & Provided<typeof platformModule>) => ({
    auditLog: createAuditService({ audit, users: usersRepo, clock }),
  }),
  routes: ({ auditLog }) => [route(adminAuditRoutes, { auditLog })],
});
