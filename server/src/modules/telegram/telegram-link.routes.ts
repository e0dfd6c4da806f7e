import type { FastifyInstance } from 'fastify';
import { UpdateTelegramPreferencesBody } from '../../../../shared/telegram.js';
import { TelegramLinkStatusAnswer, TelegramLinkUrlAnswer } from '../../answers/telegram.js';
import { NoContent, requireAccess, typed } from '../../lib/route-schemas.js';
import type { TelegramLinks } from './telegram-links.service.js';
import type { TelegramPreferencesService } from './telegram-preferences.service.js';

/**
 * The caller's Telegram: whether the store has a bot and whom they are linked to, a one-time link to link, unlinking,
 * and how they choose to be told things once linked.
 */
export async function telegramLinkRoutes(app: FastifyInstance, opts: { links: TelegramLinks; preferences: TelegramPreferencesService }) {
  requireAccess(app, 'user');
  app.get('/api/me/telegram', { schema: { response: { 200: TelegramLinkStatusAnswer } } }, async (request) => opts.links.status(request.auth!.user.id));
  app.post('/api/me/telegram-link', { schema: { response: { 200: TelegramLinkUrlAnswer } } }, async (request) => opts.links.createLink(request.auth!.user));
  app.delete('/api/me/telegram', { schema: { response: { 204: NoContent } } }, async (request, reply) => {
    await opts.links.unlink(request.auth!.user);
    return reply.status(204).send();
  });
  typed(app).patch(
    '/api/me/telegram/preferences',
    { schema: { body: UpdateTelegramPreferencesBody, response: { 200: TelegramLinkStatusAnswer } } },
    async (request) => opts.preferences.update(request.auth!.user, request.body),
  );
}
