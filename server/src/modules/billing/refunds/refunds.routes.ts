import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminRevenueQuery, AdminTransactionsQuery, RefundBody } from '../../../../../shared/billing-schemas.js';
import { actorOf } from '../../users/index.js';
import type { RefundsService } from './refunds.service.js';
import type { RevenueReport } from './revenue-report.js';
import { IdParams, requireAccess, typed } from '../../../lib/route-schemas.js';
import { AdminRevenueAnswer, AdminTransactionAnswer } from '../../../answers/billing.js';

/** The admin's payments: every customer's transactions, refunds, and the revenue each provider brought. */
export async function adminTransactionsRoutes(app: FastifyInstance, opts: { refunds: RefundsService; revenue: RevenueReport }) {
  requireAccess(app, 'admin');
  typed(app).get(
    '/api/admin/transactions',
    { schema: { querystring: AdminTransactionsQuery, response: { 200: z.array(AdminTransactionAnswer) } } },
    async (request) => opts.refunds.listTransactions(request.query),
  );
  typed(app).get('/api/admin/payments/revenue', { schema: { querystring: AdminRevenueQuery, response: { 200: AdminRevenueAnswer } } }, async (request) =>
    opts.revenue.byProvider(request.query.days),
  );
  typed(app).post(
    '/api/admin/transactions/:id/refund',
    { schema: { params: IdParams, body: RefundBody, response: { 200: AdminTransactionAnswer } } },
    async (request) => {
      // A large refund asks the staff member for their passkey again (plugins/staff-passkey.ts).
      const requested = await opts.refunds.requestedRefund(request.params.id, request.body);
      if (requested) await app.requireRefundStepUp(request, requested);
      return opts.refunds.refundTransaction(actorOf(request), request.params.id, request.body);
    },
  );
}
