import type { FastifyPluginAsync, RouteShorthandOptions } from 'fastify';
import { readClientDevice } from '../devices/index.js';
import type { LimitRule } from '../../plugins/rate-limit.js';
import { SUBSCRIPTION_NOT_FOUND, type SubscriptionService } from './subscription.service.js';

export { createSubscriptionService, type SubscriptionService, type SubscriptionServiceDeps } from './subscription.service.js';

export interface SubscriptionRoutesOptions {
  service: SubscriptionService;
  /** Requests per client address (needs the rate-limit plugin); without it, none. */
  limitPerIp?: LimitRule;
}

/**
 * `GET /sub/:token` and `GET /sub/:token/{links|v2ray|sing-box|clash-meta|clash}` (HEAD too), and
 * `GET /open/:app?url=` (open-page.ts).
 * One wildcard route takes everything under `/sub/`, so a malformed or over-long token gets the same
 * 404 `{ code: 'not_found', message }` as an unknown one (errors go through the app's error handler).
 * Past `limitPerIp` an address gets 429 with Retry-After before its token is looked up.
 */
export const subscriptionRoutes: FastifyPluginAsync<SubscriptionRoutesOptions> = async (app, opts) => {
  const { service } = opts;
  const limited: RouteShorthandOptions = opts.limitPerIp ? { onRequest: app.limiter('sub-ip', opts.limitPerIp, (request) => request.ip) } : {};

  app.get('/sub', limited, async () => {
    throw SUBSCRIPTION_NOT_FOUND;
  });

  app.get<{ Params: { '*': string } }>('/sub/*', limited, async (request, reply) => {
    const result = await service.handle({
      path: request.params['*'],
      userAgent: request.headers['user-agent'],
      accept: request.headers.accept,
      acceptLanguage: request.headers['accept-language'],
      device: readClientDevice(request.headers),
      clientAddress: request.ip,
      host: request.host,
    });
    return reply.code(result.statusCode).headers(result.headers).send(result.body);
  });

  // An https page that opens an app's deep link (Telegram refuses custom schemes in buttons).
  app.get<{ Params: { app: string }; Querystring: { url?: unknown } }>('/open/:app', limited, async (request, reply) => {
    const url = typeof request.query.url === 'string' ? request.query.url : undefined;
    const result = await service.openApp({ appId: request.params.app, url, acceptLanguage: request.headers['accept-language'] });
    return reply.code(result.statusCode).headers(result.headers).send(result.body);
  });
};
