import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AdminCreateAccountBody, CreateAccountBody } from '../../../../shared/accounts.js';
import { sendKeptJson } from '../../lib/kept-json.js';
import type { AccountsService } from './accounts.service.js';
import { AccountLogAnswer, VpnAccountAnswer, VpnAccountListAnswer } from '../../answers/accounts.js';
import { NoContent, requireAccess, typed } from '../../lib/route-schemas.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;
const LogsQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(100) });

/** The caller's own accounts: every query names the owner, so someone else's account is a 404. */
export async function accountsRoutes(app: FastifyInstance, opts: { accounts: AccountsService }) {
  requireAccess(app, 'user');
  // Sent as prepared JSON (account-response.ts): the schema is for the document.
  app.get('/api/accounts', { schema: { response: { 200: VpnAccountListAnswer } } }, async (request, reply) =>
    sendKeptJson(request, reply, await opts.accounts.listAccountsJson(request.auth!.user.id)),
  );
  typed(app).post('/api/accounts', { schema: { body: CreateAccountBody, response: { 201: VpnAccountAnswer } } }, async (request, reply) =>
    reply.status(201).send(await opts.accounts.claimPlan(request.auth!.user, request.body.planId)),
  );
  app.delete('/api/accounts/:id', { schema: { response: { 204: NoContent } } }, async (request: WithId, reply) => {
    await opts.accounts.deleteAccount(request.auth!.user, request.params.id);
    return reply.status(204).send();
  });
}

export async function adminAccountsRoutes(app: FastifyInstance, opts: { accounts: AccountsService }) {
  requireAccess(app, 'admin');
  typed(app).post('/api/admin/accounts', { schema: { body: AdminCreateAccountBody, response: { 201: VpnAccountAnswer } } }, async (request, reply) =>
    reply.status(201).send(await opts.accounts.createCustomAccount(request.auth!.user, request.body)),
  );
  typed(app).get('/api/admin/logs', { schema: { querystring: LogsQuery, response: { 200: AccountLogAnswer } } }, async (request) =>
    opts.accounts.listLogs(request.query.limit),
  );
}
