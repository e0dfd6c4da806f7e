import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AdminRevenueQuery, AdminTransactionsQuery, RefundBody } from '../../../../../shared/billing-schemas.js';
import { parseInput } from '../../../lib/parse.js';
import { actorOf } from '../../users/users.service.js';
import type { RefundsService } from './refunds.service.js';
import type { RevenueReport } from './revenue-report.js';

/** The admin's payments: every customer's transactions, refunds, and the revenue each provider brought. */
export async function adminTransactionsRoutes(app: FastifyInstance, opts: { refunds: RefundsService; revenue: RevenueReport }) {
  app.addHook('preHandler', app.requireAdmin);
  app.get('/api/admin/transactions', async (request) => opts.refunds.listTransactions(parseInput(AdminTransactionsQuery, request.query)));
  app.get('/api/admin/payments/revenue', async (request) => opts.revenue.byProvider(parseInput(AdminRevenueQuery, request.query).days));
  app.post('/api/admin/transactions/:id/refund', async (request: FastifyRequest<{ Params: { id: string } }>) =>
    opts.refunds.refundTransaction(actorOf(request), request.params.id, parseInput(RefundBody, request.body ?? {})));
}
