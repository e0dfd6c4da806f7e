import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PlanBody, UpdatePlanBody } from '../../../../shared/plans.js';
import { sendJsonAnswer } from '../../lib/json-answer.js';
import { actorOf } from '../users/index.js';
import type { PlansService } from './plans.service.js';
import { AdminPlanAnswer, AdminPlanListAnswer, PlanListAnswer } from '../../answers/plans.js';
import { IdParams, NoContent, requireAccess, typed } from '../../lib/route-schemas.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

export async function publicPlansRoutes(app: FastifyInstance, opts: { plans: PlansService }) {
  app.get('/api/plans', { schema: { response: { 200: PlanListAnswer } } }, async (request, reply) =>
    sendJsonAnswer(request, reply, await opts.plans.publicPlansAnswer()),
  );
}

export async function adminPlansRoutes(app: FastifyInstance, opts: { plans: PlansService }) {
  const { plans } = opts;
  requireAccess(app, 'admin');
  app.get('/api/admin/plans', { schema: { response: { 200: AdminPlanListAnswer } } }, async () => plans.listAdminPlans());
  typed(app).post('/api/admin/plans', { schema: { body: PlanBody, response: { 201: AdminPlanAnswer } } }, async (request, reply) =>
    reply.status(201).send(await plans.createPlan(actorOf(request), request.body)),
  );
  typed(app).patch('/api/admin/plans/:id', { schema: { params: IdParams, body: UpdatePlanBody, response: { 200: AdminPlanAnswer } } }, async (request) =>
    plans.updatePlan(actorOf(request), request.params.id, request.body),
  );
  app.delete('/api/admin/plans/:id', { schema: { response: { 204: NoContent } } }, async (request: WithId, reply) => {
    await plans.deletePlan(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
