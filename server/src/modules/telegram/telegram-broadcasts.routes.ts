import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { CreateBroadcastBody } from '../../../../shared/telegram-broadcasts.js';
import { BroadcastPreviewAnswer, TelegramBroadcastAnswer } from '../../answers/telegram.js';
import { requireAccess, typed } from '../../lib/route-schemas.js';
import { actorOf } from '../users/index.js';
import type { TelegramBroadcasts } from './telegram-broadcasts.service.js';

const BroadcastParams = z.object({ id: z.uuid({ error: 'No such broadcast' }) });

/** The admin's broadcasts by Telegram: the list with counts, a preview of the audience, sending one, cancelling one. */
export async function telegramBroadcastRoutes(app: FastifyInstance, opts: { broadcasts: TelegramBroadcasts }) {
  requireAccess(app, 'admin');
  const one = { 200: TelegramBroadcastAnswer };
  app.get('/api/admin/telegram/broadcasts', { schema: { response: { 200: z.array(TelegramBroadcastAnswer) } } }, async () => opts.broadcasts.list());
  typed(app).post(
    '/api/admin/telegram/broadcasts/preview',
    { schema: { body: CreateBroadcastBody.partial({ text: true }), response: { 200: BroadcastPreviewAnswer } } },
    async (request) => opts.broadcasts.preview(request.body),
  );
  typed(app).post(
    '/api/admin/telegram/broadcasts',
    { schema: { body: CreateBroadcastBody, response: { 201: TelegramBroadcastAnswer } } },
    async (request, reply) => reply.status(201).send(await opts.broadcasts.create(actorOf(request), request.body)),
  );
  typed(app).post('/api/admin/telegram/broadcasts/:id/cancel', { schema: { params: BroadcastParams, response: one } }, async (request) =>
    opts.broadcasts.cancel(actorOf(request), request.params.id),
  );
}
