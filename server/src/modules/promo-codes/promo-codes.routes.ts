import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CreatePromoCodeBody, UpdatePromoCodeBody } from '../../../../shared/promo-codes.js';
import { actorOf } from '../users/index.js';
import type { PromoCodesService } from './promo-codes.service.js';
import { AdminPromoCodeAnswer, AdminPromoCodeListAnswer } from '../../answers/promo-codes.js';
import { IdParams, NoContent, requireAccess, typed } from '../../lib/route-schemas.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/** The admin's promo codes: list (with their uses), create, switch off or change the end and the limit, delete an unused one. */
export async function adminPromoCodesRoutes(app: FastifyInstance, opts: { promos: PromoCodesService }) {
  const { promos } = opts;
  requireAccess(app, 'admin');
  app.get('/api/admin/promo-codes', { schema: { response: { 200: AdminPromoCodeListAnswer } } }, async () => promos.list());
  typed(app).post('/api/admin/promo-codes', { schema: { body: CreatePromoCodeBody, response: { 201: AdminPromoCodeAnswer } } }, async (request, reply) =>
    reply.status(201).send(await promos.create(actorOf(request), request.body)),
  );
  typed(app).patch(
    '/api/admin/promo-codes/:id',
    { schema: { params: IdParams, body: UpdatePromoCodeBody, response: { 200: AdminPromoCodeAnswer } } },
    async (request) => promos.update(actorOf(request), request.params.id, request.body),
  );
  app.delete('/api/admin/promo-codes/:id', { schema: { response: { 204: NoContent } } }, async (request: WithId, reply) => {
    await promos.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
