import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CheckGiftCodeBody, CreateGiftCodesBody, RedeemGiftCodeBody } from '../../../../shared/gift-codes.js';
import { CHECKOUT_LIMIT, type LimitRule } from '../../plugins/rate-limit.js';
import { actorOf } from '../users/index.js';
import type { GiftCodesService } from './gift-codes.service.js';
import { AdminGiftBatchAnswer, AdminGiftBatchListAnswer, GiftBatchCreatedAnswer, GiftCheckedAnswer, GiftRedeemedAnswer } from '../../answers/gift-codes.js';
import { requireAccess, typed } from '../../lib/route-schemas.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/**
 * The customer's redemption (and its check beforehand): signed in, counted in the per-user checkout limit (the same counter as checkout's),
 * so codes are not guessed.
 */
export async function giftRedeemRoutes(app: FastifyInstance, opts: { gifts: GiftCodesService; checkoutLimit: LimitRule }) {
  requireAccess(app, 'user');
  const perUser = app.limiter(CHECKOUT_LIMIT, opts.checkoutLimit, (request) => request.auth!.user.id);
  // What a code gives, before it is redeemed (the dialog offers only the accounts it can extend): counted the same way.
  typed(app).post(
    '/api/gift-codes/check',
    { preValidation: perUser, schema: { body: CheckGiftCodeBody, response: { 200: GiftCheckedAnswer } } },
    async (request) => opts.gifts.check(request.auth!.user, request.body),
  );
  typed(app).post(
    '/api/gift-codes/redeem',
    { preValidation: perUser, schema: { body: RedeemGiftCodeBody, response: { 201: GiftRedeemedAnswer } } },
    async (request, reply) => reply.status(201).send(await opts.gifts.redeem(request.auth!.user, request.body)),
  );
}

/** The admin's batches: issue (the codes come back once), list, download as CSV, revoke the unused ones. */
export async function adminGiftCodesRoutes(app: FastifyInstance, opts: { gifts: GiftCodesService }) {
  const { gifts } = opts;
  requireAccess(app, 'admin');
  app.get('/api/admin/gift-codes', { schema: { response: { 200: AdminGiftBatchListAnswer } } }, async () => gifts.listBatches());
  typed(app).post('/api/admin/gift-codes', { schema: { body: CreateGiftCodesBody, response: { 201: GiftBatchCreatedAnswer } } }, async (request, reply) =>
    reply.status(201).send(await gifts.createBatch(actorOf(request), request.body)),
  );
  app.get('/api/admin/gift-codes/:id/csv', async (request: WithId, reply) => {
    const { filename, csv } = await gifts.batchCsv(request.params.id);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });
  app.post('/api/admin/gift-codes/:id/revoke', { schema: { response: { 200: AdminGiftBatchAnswer } } }, async (request: WithId) =>
    gifts.revokeUnused(actorOf(request), request.params.id),
  );
}
