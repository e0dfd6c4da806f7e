import type { FastifyInstance } from 'fastify';
import { MeSchema, UpdateMeBody } from '../../../../shared/auth.js';
import { AdminUsersQuery, SetStaffRoleBody, UpdateUserBody } from '../../../../shared/users.js';
import { sendKeptJson } from '../../lib/kept-json.js';
import { toMe } from '../../plugins/auth.js';
import { actorOf, type UsersService } from './users.service.js';
import { IdParams, requireAccess, typed } from '../../lib/route-schemas.js';
import { AdminUserAnswer, AdminUsersPageAnswer } from '../../answers/users.js';

export async function meRoutes(app: FastifyInstance, opts: { users: UsersService }) {
  const response = { 200: MeSchema };
  app.get('/api/me', { preValidation: app.requireUser, schema: { response } }, async (request) => toMe(request.auth!.user));
  typed(app).patch('/api/me', { preValidation: app.requireUser, schema: { body: UpdateMeBody, response } }, async (request) =>
    toMe(await opts.users.updateOwnSettings(request.auth!.user, request.body)),
  );
}

export async function adminUsersRoutes(app: FastifyInstance, opts: { users: UsersService }) {
  requireAccess(app, 'admin');

  typed(app).get('/api/admin/users', { schema: { querystring: AdminUsersQuery, response: { 200: AdminUsersPageAnswer } } }, async (request, reply) =>
    sendKeptJson(request, reply, await opts.users.listUsers(request.query)),
  );

  typed(app).patch('/api/admin/users/:id', { schema: { params: IdParams, body: UpdateUserBody, response: { 200: AdminUserAnswer } } }, async (request) => {
    // A role change asks for the passkey again (plugins/staff-passkey.ts), as the Staff section does.
    if (request.body.role !== undefined) await app.requireStepUp(request);
    return opts.users.updateUser(actorOf(request), request.params.id, request.body);
  });

  // The Staff section: the owner's alone (lib/staff-policy.ts).
  typed(app).get('/api/admin/staff', { schema: { response: { 200: AdminUsersPageAnswer } } }, async () => opts.users.listStaff());

  typed(app).put('/api/admin/staff', { schema: { body: SetStaffRoleBody, response: { 200: AdminUserAnswer } } }, async (request) => {
    await app.requireStepUp(request);
    const { user } = await opts.users.setRoleByEmail(actorOf(request), request.body.email, request.body.role);
    return user;
  });
}
