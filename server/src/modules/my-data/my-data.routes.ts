import type { FastifyInstance } from 'fastify';
import { MyDataExportAnswer } from '../../answers/my-data.js';
import { NoContent, requireAccess } from '../../lib/route-schemas.js';
import type { MyDataService } from './my-data.service.js';

/** The caller's own data: `GET /api/me/export` (a file to keep) and `DELETE /api/me` (the account erased). */
export async function myDataRoutes(app: FastifyInstance, opts: { myData: MyDataService }) {
  requireAccess(app, 'user');

  app.get('/api/me/export', { schema: { response: { 200: MyDataExportAnswer } } }, async (request, reply) => {
    const data = await opts.myData.exportFor(request.auth!.user);
    const day = data.exportedAt.slice(0, 10);
    return reply.header('cache-control', 'no-store').header('content-disposition', `attachment; filename="my-data-${day}.json"`).send(data);
  });

  app.delete('/api/me', { schema: { response: { 204: NoContent } } }, async (request, reply) => {
    await opts.myData.eraseMe(request.auth!.user);
    app.clearSessionCookies(reply);
    return reply.code(204).send();
  });
}
