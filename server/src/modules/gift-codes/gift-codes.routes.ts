import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CreateGiftCodesBody, RedeemGiftCodeBody } from '../../../../shared/gift-codes.js';
import { parseInput } from '../../lib/parse.js';
import { CHECKOUT_LIMIT, type LimitRule } from '../../plugins/rate-limit.js';
import { actorOf } from '../users/users.service.js';
import type { GiftCodesService } from './gift-codes.service.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/**
 * The customer's redemption: signed in, counted in the per-user checkout limit (the same counter as checkout's),
 * so codes are not guessed.
 */
export async function giftRedeemRoutes(app: FastifyInstance, opts: { gifts: GiftCodesService; checkoutLimit: LimitRule }) {
  app.addHook('preHandler', app.requireUser);
  const perUser = app.limiter(CHECKOUT_LIMIT, opts.checkoutLimit, (request) => request.auth!.user.id);
  app.post('/api/gift-codes/redeem', { preHandler: perUser }, async (request, reply) =>
    reply.status(201).send(await opts.gifts.redeem(request.auth!.user, parseInput(RedeemGiftCodeBody, request.body))));
}

/** The admin's batches: issue (the codes come back once), list, download as CSV, revoke the unused ones. */
export async function adminGiftCodesRoutes(app: FastifyInstance, opts: { gifts: GiftCodesService }) {
  const { gifts } = opts;
  app.addHook('preHandler', app.requireAdmin);
  app.get('/api/admin/gift-codes', async () => gifts.listBatches());
  app.post('/api/admin/gift-codes', async (request, reply) => reply.status(201).send(await gifts.createBatch(actorOf(request), parseInput(CreateGiftCodesBody, request.body))));
  app.get('/api/admin/gift-codes/:id/csv', async (request: WithId, reply) => {
    const { filename, csv } = await gifts.batchCsv(request.params.id);
    return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${filename}"`).header('cache-control', 'no-store').send(csv);
  });
  app.post('/api/admin/gift-codes/:id/revoke', async (request: WithId) => gifts.revokeUnused(actorOf(request), request.params.id));
}
