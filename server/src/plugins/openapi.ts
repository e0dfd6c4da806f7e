import { isDeepStrictEqual } from 'node:util';
import swagger from '@fastify/swagger';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { APP_VERSION } from '../lib/package-info.js';
import { parseInput } from '../lib/parse.js';
import { requestScopedLogger } from '../lib/request-log.js';
import { answerWriter } from './answer-writer.js';
import { API_ERROR_COMPONENT, describeFailures } from './openapi-errors.js';

/** A route's answer schema as Fastify hands it over: the zod schema, or an object holding it under `properties`. */
const zodSchemaOf = (schema: unknown): z.ZodType => (schema instanceof z.ZodType ? schema : (schema as { properties: z.ZodType }).properties);

/** The paths (`a.b[0].c`) of what `sent` holds that `kept` does not: fields the answer's schema does not declare. */
export function undeclaredFields(sent: unknown, kept: unknown, path = ''): string[] {
  if (Array.isArray(sent)) return Array.isArray(kept) ? sent.flatMap((item, i) => undeclaredFields(item, kept[i], `${path}[${i}]`)) : [];
  if (sent === null || typeof sent !== 'object' || kept === null || typeof kept !== 'object') return [];
  return Object.entries(sent).flatMap(([key, value]) => {
    const at = path ? `${path}.${key}` : key;
    if (value === undefined) return [];
    return key in kept ? undeclaredFields(value, (kept as Record<string, unknown>)[key], at) : [at];
  });
}

/**
 * In tests, an answer with a field its schema does not declare fails (a 500 naming the field) instead of being
 * left out silently as it is in production: the schema and the code that answers are kept in step.
 */
const strictSerializerCompiler: typeof serializerCompiler = (route) => {
  const serialize = serializerCompiler(route);
  // What production would write (answer-writer.ts), held to the same answer on every test's data.
  const writeAsProduction = answerWriter(zodSchemaOf(route.schema), (err) => {
    throw err;
  });
  return (data) => {
    const json = serialize(data);
    const undeclared = undeclaredFields(JSON.parse(JSON.stringify(data)) as unknown, JSON.parse(json) as unknown);
    if (undeclared.length > 0) throw new Error(`${route.method} ${route.url} answered fields its schema does not declare: ${undeclared.join(', ')}`);
    const production = writeAsProduction(data);
    if (!isDeepStrictEqual(JSON.parse(production), JSON.parse(json)))
      throw new Error(`${route.method} ${route.url}: production would answer ${production}, not ${json}`);
    return json;
  };
};

/**
 * In tests, an answer a route sends already made (a kept JSON string: the users list, the overview, the config) is
 * held to its schema as well: what the serializer would have refused fails here, naming what is wrong.
 */
async function checkMadeAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
  const schema = (request.routeOptions.schema?.response as Record<string, unknown> | undefined)?.[String(reply.statusCode)];
  if (!(schema instanceof z.ZodType)) return payload;
  const sent = JSON.parse(payload) as unknown;
  const result = schema.safeParse(sent);
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  if (!result.success) throw new Error(`${route} answered what its schema refuses: ${result.error.message}`);
  const undeclared = undeclaredFields(sent, result.data);
  if (undeclared.length > 0) throw new Error(`${route} answered fields its schema does not declare: ${undeclared.join(', ')}`);
  return payload;
}

/** In production, each route's answers go out through `answerWriter` (answer-writer.ts). */
function forgivingSerializerCompiler(log: FastifyBaseLogger): typeof serializerCompiler {
  return (route) => {
    return answerWriter(zodSchemaOf(route.schema), (err) =>
      log.error({ err, method: route.method, url: route.url }, 'an answer does not match its schema: sent with the fields the schema declares'),
    );
  };
}

/**
 * A route's `body` and `querystring` schemas are checked before its handler runs (after its hooks of the
 * `preValidation` step: who is signed in, the rate limits), and a failure is the catalogue's 400
 * `validation_failed` naming each bad field (lib/parse.ts), not Fastify's own shape.
 */
const inputValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    try {
      return { value: parseInput(schema, data) };
    } catch (err) {
      return { error: err as Error };
    }
  };

/** Where the document is served. */
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The API's OpenAPI 3.1 document at `GET /api/openapi.json`, made from the routes as they are registered: a route's
 * zod schemas (fastify-type-provider-zod) validate its input, shape its answer and describe both here. Registered
 * before every route; the site's pages are left out (`schema.hide`).
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance, opts: { publicUrl: URL; strictAnswers: boolean }) => {
    app.setValidatorCompiler(inputValidatorCompiler);
    app.setSerializerCompiler(opts.strictAnswers ? strictSerializerCompiler : forgivingSerializerCompiler(requestScopedLogger(app.log)));
    if (opts.strictAnswers) app.addHook('onSend', checkMadeAnswer);
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
          schemas: { ApiError: API_ERROR_COMPONENT },
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'vpn_access', description: 'The web app: httpOnly cookies set by /api/auth/verify.' },
            bearer: { type: 'http', scheme: 'bearer', description: 'The desktop app: the access token from /api/auth/verify with client "desktop".' },
          },
        },
      },
      transform: (document) => {
        const transformed = jsonSchemaTransform(document);
        const schema = (transformed.schema ?? {}) as Record<string, unknown>;
        return schema.hide ? transformed : { ...transformed, schema: describeFailures(app, document.route, schema) };
      },
    });
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi' },
);
