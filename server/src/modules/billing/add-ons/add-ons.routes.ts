import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AddOnBody, AddOnPatchBody, BuyAddOnBody } from '../../../../../shared/add-ons.js';
import { AccountAddOnsAnswer, AddOnAnswer, AddOnListAnswer } from '../../../answers/add-ons.js';
import { CheckoutStartedAnswer } from '../../../answers/checkout.js';
import { NoContent, requireAccess, typed } from '../../../lib/route-schemas.js';
import { CHECKOUT_LIMIT, type LimitRule } from '../../../plugins/rate-limit.js';
import { actorOf } from '../../users/index.js';
import type { CheckoutService } from '../checkout/checkout.service.js';
import type { AddOnsService } from './add-ons.service.js';

const Params = z.object({ id: z.string().min(1).max(64) });

/** The customer's add-ons: what an account can buy and has, and buying one (counted with checkouts per user). */
export async function accountAddOnsRoutes(app: FastifyInstance, opts: { addOns: AddOnsService; checkout: CheckoutService; checkoutLimit: LimitRule }) {
  requireAccess(app, 'user');
  const perUser = app.limiter(CHECKOUT_LIMIT, opts.checkoutLimit, (request) => request.auth!.user.id);
  typed(app).get('/api/accounts/:id/add-ons', { schema: { params: Params, response: { 200: AccountAddOnsAnswer } } }, async (request) =>
    opts.addOns.forAccount(request.auth!.user, request.params.id),
  );
  typed(app).post(
    '/api/accounts/:id/add-ons',
    { preValidation: perUser, schema: { params: Params, body: BuyAddOnBody, response: { 200: CheckoutStartedAnswer } } },
    async (request) => opts.checkout.startAddOn(request.auth!.user, request.params.id, request.body),
  );
}

/** The admin's add-ons: list, create, change, delete (one nobody bought). */
export async function adminAddOnsRoutes(app: FastifyInstance, opts: { addOns: AddOnsService }) {
  const { addOns } = opts;
  requireAccess(app, 'admin');
  app.get('/api/admin/add-ons', { schema: { response: { 200: AddOnListAnswer } } }, async () => addOns.list());
  typed(app).post('/api/admin/add-ons', { schema: { body: AddOnBody, response: { 201: AddOnAnswer } } }, async (request, reply) =>
    reply.status(201).send(await addOns.create(actorOf(request), request.body)),
  );
  typed(app).patch('/api/admin/add-ons/:id', { schema: { params: Params, body: AddOnPatchBody, response: { 200: AddOnAnswer } } }, async (request) =>
    addOns.update(actorOf(request), request.params.id, request.body),
  );
  typed(app).delete('/api/admin/add-ons/:id', { schema: { params: Params, response: { 204: NoContent } } }, async (request, reply) => {
    await addOns.remove(actorOf(request), request.params.id);
    return reply.status(204).send(null);
  });
}
