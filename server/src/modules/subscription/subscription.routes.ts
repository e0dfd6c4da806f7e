import type { FastifyPluginAsync } from 'fastify';
import { notFound } from '../../errors.js';
import { SUBSCRIPTION_MESSAGES, type SubscriptionService } from './subscription.service.js';

export { createSubscriptionService, type SubscriptionService, type SubscriptionServiceDeps } from './subscription.service.js';

export interface SubscriptionRoutesOptions {
  service: SubscriptionService;
}

/**
 * `GET /sub/:token` and `GET /sub/:token/{links|v2ray|sing-box|clash-meta|clash}` (HEAD too).
 * One wildcard route takes everything under `/sub/`, so a malformed or over-long token gets the same
 * 404 `{ code: 'not_found', message }` as an unknown one (errors go through the app's error handler).
 */
export const subscriptionRoutes: FastifyPluginAsync<SubscriptionRoutesOptions> = async (app, opts) => {
  const { service } = opts;

  app.get('/sub', async () => {
    throw notFound(SUBSCRIPTION_MESSAGES.notFound);
  });

  app.get<{ Params: { '*': string } }>('/sub/*', async (request, reply) => {
    const result = await service.handle({
      path: request.params['*'],
      userAgent: request.headers['user-agent'],
      accept: request.headers.accept,
    });
    return reply.code(result.statusCode).headers(result.headers).send(result.body);
  });
};
