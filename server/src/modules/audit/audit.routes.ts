import type { FastifyInstance } from 'fastify';
import { AuditFilterQuery, AuditListQuery } from '../../../../shared/audit.js';
import { AuditCsvAnswer, AuditLogPageAnswer } from '../../answers/audit.js';
import { requireAccess, typed } from '../../lib/route-schemas.js';
import type { AuditService } from './audit.service.js';

/** The Audit section: the log filtered and paged, and the same filters as a CSV download. */
export async function adminAuditRoutes(app: FastifyInstance, opts: { auditLog: AuditService }) {
  requireAccess(app, 'admin');
  typed(app).get('/api/admin/audit', { schema: { querystring: AuditListQuery, response: { 200: AuditLogPageAnswer } } }, async (request) =>
    opts.auditLog.list(request.query),
  );
  typed(app).get('/api/admin/audit/export', { schema: { querystring: AuditFilterQuery, response: { 200: AuditCsvAnswer } } }, async (request, reply) => {
    const { filename, csv } = await opts.auditLog.exportCsv(request.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
}
