import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CreatePromoCodeBody, UpdatePromoCodeBody } from '../../../../shared/promo-codes.js';
import { parseInput } from '../../lib/parse.js';
import { actorOf } from '../users/users.service.js';
import type { PromoCodesService } from './promo-codes.service.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/** The admin's promo codes: list (with their uses), create, switch off or change the end and the limit, delete an unused one. */
export async function adminPromoCodesRoutes(app: FastifyInstance, opts: { promos: PromoCodesService }) {
  const { promos } = opts;
  app.addHook('preHandler', app.requireAdmin);
  app.get('/api/admin/promo-codes', async () => promos.list());
  app.post('/api/admin/promo-codes', async (request, reply) => reply.status(201).send(await promos.create(actorOf(request), parseInput(CreatePromoCodeBody, request.body))));
  app.patch('/api/admin/promo-codes/:id', async (request: WithId) => promos.update(actorOf(request), request.params.id, parseInput(UpdatePromoCodeBody, request.body)));
  app.delete('/api/admin/promo-codes/:id', async (request: WithId, reply) => {
    await promos.remove(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
