import type { FastifyInstance } from 'fastify';
import { AdminRevenueQuery, AdminTransactionsQuery, RefundBody } from '../../../../../shared/billing-schemas.js';
import { actorOf } from '../../users/users.service.js';
import type { RefundsService } from './refunds.service.js';
import type { RevenueReport } from './revenue-report.js';
import { IdParams, requireAccess, typed } from '../../../lib/route-schemas.js';

/** The admin's payments: every customer's transactions, refunds, and the revenue each provider brought. */
export async function adminTransactionsRoutes(app: FastifyInstance, opts: { refunds: RefundsService; revenue: RevenueReport }) {
  requireAccess(app, 'admin');
  typed(app).get('/api/admin/transactions', { schema: { querystring: AdminTransactionsQuery } }, async (request) => opts.refunds.listTransactions(request.query));
  typed(app).get('/api/admin/payments/revenue', { schema: { querystring: AdminRevenueQuery } }, async (request) => opts.revenue.byProvider(request.query.days));
  typed(app).post('/api/admin/transactions/:id/refund', { schema: { params: IdParams, body: RefundBody } }, async (request) =>
    opts.refunds.refundTransaction(actorOf(request), request.params.id, request.body));
}
