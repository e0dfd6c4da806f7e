import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { APP_VERSION } from '../lib/package-info.js';

/** Where the document is served. */
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The API's OpenAPI 3.1 document at `GET /api/openapi.json`, made from the routes as they are registered: a route's
 * zod schemas (fastify-type-provider-zod) validate its input, shape its answer and describe both here. Registered
 * before every route; the site's pages are left out (`schema.hide`).
 */
export const openApiPlugin = fp(async (app: FastifyInstance, opts: { publicUrl: URL }) => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'VPN storefront API',
        version: APP_VERSION,
        description: 'Every failure is `{ code, message }`; the codes and their statuses are in shared/errors.ts (docs/api.md).',
      },
      servers: [{ url: opts.publicUrl.origin }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'vpn_access', description: 'The web app: httpOnly cookies set by /api/auth/verify.' },
          bearer: { type: 'http', scheme: 'bearer', description: 'The desktop app: the access token from /api/auth/verify with client "desktop".' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
}, { name: 'openapi' });
