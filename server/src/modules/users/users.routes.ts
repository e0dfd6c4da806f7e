import type { FastifyInstance } from 'fastify';
import { MeSchema, UpdateMeBody } from '../../../../shared/auth.js';
import { AdminUsersQuery, UpdateUserBody } from '../../../../shared/users.js';
import { sendKeptJson } from '../../lib/kept-json.js';
import { parseInput } from '../../lib/parse.js';
import { toMe } from '../../plugins/auth.js';
import type { UserPageService } from './user-page.service.js';
import { actorOf, type UsersService } from './users.service.js';

export async function meRoutes(app: FastifyInstance, opts: { users: UsersService }) {
  const answers = { schema: { response: { 200: MeSchema } } };
  app.get('/api/me', { preHandler: app.requireUser, ...answers }, async (request) => toMe(request.auth!.user));
  app.patch('/api/me', { preHandler: app.requireUser, ...answers }, async (request) =>
    toMe(await opts.users.updateOwnSettings(request.auth!.user, parseInput(UpdateMeBody, request.body))));
}

export async function adminUsersRoutes(app: FastifyInstance, opts: { users: UsersService; userPage: UserPageService }) {
  app.addHook('preHandler', app.requireAdmin);

  app.get('/api/admin/users', async (request, reply) =>
    sendKeptJson(request, reply, await opts.users.listUsers(parseInput(AdminUsersQuery, request.query))));

  app.get<{ Params: { id: string } }>('/api/admin/users/:id', async (request) => opts.userPage.getPage(request.params.id));
  app.post<{ Params: { id: string } }>('/api/admin/users/:id/sign-out', async (request) => opts.userPage.signOutEverywhere(actorOf(request), request.params.id));

  app.patch<{ Params: { id: string } }>('/api/admin/users/:id', async (request) => {
    const changes = parseInput(UpdateUserBody, request.body);
    return opts.users.updateUser(actorOf(request), request.params.id, changes);
  });
}
