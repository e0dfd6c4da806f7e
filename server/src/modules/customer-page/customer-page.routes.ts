import type { FastifyInstance } from 'fastify';
import { AdminUserPageAnswer, SignedOutEverywhereAnswer } from '../../answers/users.js';
import { requireAccess } from '../../lib/route-schemas.js';
import { OtpSentAnswer } from '../../answers/auth.js';
import { actorOf } from '../users/index.js';
import type { UserPageService } from './user-page.service.js';

/** The admin's page of one customer, and signing them out everywhere. */
export async function customerPageRoutes(app: FastifyInstance, opts: { userPage: UserPageService }) {
  requireAccess(app, 'admin');

  app.get<{ Params: { id: string } }>('/api/admin/users/:id', { schema: { response: { 200: AdminUserPageAnswer } } }, async (request) =>
    opts.userPage.getPage(request.params.id),
  );
  app.post<{ Params: { id: string } }>('/api/admin/users/:id/sign-out', { schema: { response: { 200: SignedOutEverywhereAnswer } } }, async (request) =>
    opts.userPage.signOutEverywhere(actorOf(request), request.params.id),
  );
  app.post<{ Params: { id: string } }>('/api/admin/users/:id/send-code', { schema: { response: { 200: OtpSentAnswer } } }, async (request) =>
    opts.userPage.sendSignInCode(actorOf(request), request.params.id, { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null }),
  );
}
