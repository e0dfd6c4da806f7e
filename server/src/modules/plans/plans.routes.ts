import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PlanBody, UpdatePlanBody } from '../../../../shared/plans.js';
import { sendJsonAnswer } from '../../lib/json-answer.js';
import { parseInput } from '../../lib/parse.js';
import { actorOf } from '../users/users.service.js';
import type { PlansService } from './plans.service.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

export async function publicPlansRoutes(app: FastifyInstance, opts: { plans: PlansService }) {
  app.get('/api/plans', async (request, reply) => sendJsonAnswer(request, reply, await opts.plans.publicPlansAnswer()));
}

export async function adminPlansRoutes(app: FastifyInstance, opts: { plans: PlansService }) {
  const { plans } = opts;
  app.addHook('preHandler', app.requireAdmin);
  app.get('/api/admin/plans', async () => plans.listAdminPlans());
  app.post('/api/admin/plans', async (request, reply) => reply.status(201).send(await plans.createPlan(actorOf(request), parseInput(PlanBody, request.body))));
  app.patch('/api/admin/plans/:id', async (request: WithId) => plans.updatePlan(actorOf(request), request.params.id, parseInput(UpdatePlanBody, request.body)));
  app.delete('/api/admin/plans/:id', async (request: WithId, reply) => {
    await plans.deletePlan(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
