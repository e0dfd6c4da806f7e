import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AdminCreateAccountBody, CreateAccountBody } from '../../../../shared/accounts.js';
import { sendKeptJson } from '../../lib/kept-json.js';
import type { AccountsService } from './accounts.service.js';
import { requireAccess, typed } from '../../lib/route-schemas.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;
const LogsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(100) });

/** The caller's own accounts: every query names the owner, so someone else's account is a 404. */
export async function accountsRoutes(app: FastifyInstance, opts: { accounts: AccountsService }) {
  requireAccess(app, 'user');
  app.get('/api/accounts', async (request, reply) => sendKeptJson(request, reply, await opts.accounts.listAccountsJson(request.auth!.user.id)));
  typed(app).post('/api/accounts', { schema: { body: CreateAccountBody } }, async (request, reply) =>
    reply.status(201).send(await opts.accounts.claimPlan(request.auth!.user, request.body.planId)));
  app.delete('/api/accounts/:id', async (request: WithId, reply) => {
    await opts.accounts.deleteAccount(request.auth!.user, request.params.id);
    return reply.status(204).send();
  });
}

export async function adminAccountsRoutes(app: FastifyInstance, opts: { accounts: AccountsService }) {
  requireAccess(app, 'admin');
  typed(app).post('/api/admin/accounts', { schema: { body: AdminCreateAccountBody } }, async (request, reply) =>
    reply.status(201).send(await opts.accounts.createCustomAccount(request.auth!.user, request.body)));
  typed(app).get('/api/admin/logs', { schema: { querystring: LogsQuery } }, async (request) => opts.accounts.listLogs(request.query.limit));
}
