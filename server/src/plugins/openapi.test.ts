import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestEnvironment } from '../../test/environment.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';
import { OPENAPI_PATH, openApiPlugin, undeclaredFields } from './openapi.js';

interface Registered {
  method: string;
  url: string;
  hidden: boolean;
}

type Document = { openapi: string; paths: Record<string, Record<string, unknown>> };

/** Fastify's `/a/:id` (and `/sub/*`) as the document writes it: `/a/{id}` (`/sub/{*}`). */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');

describe('the OpenAPI document (GET /api/openapi.json)', () => {
  const env = useTestEnvironment('sqlite');
  const registered: Registered[] = [];
  let t: TestApp;
  let doc: Document;
  beforeAll(async () => {
    t = await buildTestApp({
      db: env.database.db,
      overrides: {
        onRoute: (route) => {
          const methods = Array.isArray(route.method) ? route.method : [route.method];
          const hidden = Boolean((route as { schema?: { hide?: boolean } }).schema?.hide);
          for (const method of methods) registered.push({ method: method.toLowerCase(), url: route.url, hidden });
        },
      },
    });
    const res = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    doc = res.json<Document>();
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every route the server registers, with its method; only the site’s own pages are left out', () => {
    const api = registered.filter((route) => route.method !== 'head' && !route.hidden);
    expect(api.length).toBeGreaterThan(100);
    const missing = api.filter((route) => !doc.paths[openApiPath(route.url)]?.[route.method]).map((route) => `${route.method.toUpperCase()} ${route.url}`);
    expect(missing).toEqual([]);
    const listed = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    expect(listed.length).toBe(new Set(api.map((route) => `${route.method} ${openApiPath(route.url)}`)).size);
    // Hidden: the site's pages (and the document itself), never an API route.
    for (const route of registered.filter((candidate) => candidate.hidden)) {
      expect(route.url === OPENAPI_PATH || !route.url.startsWith('/api/'), route.url).toBe(true);
    }
  });

  it('describes the answers of routes with schemas', () => {
    const answer = (path: string, status: string) =>
      (doc.paths[path]?.get as { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> }).responses[
        status
      ]!.content['application/json']!.schema;
    expect(Object.keys(answer('/api/me', '200').properties).sort()).toEqual(['email', 'id', 'locale', 'role', 'trialUsed']);
    expect(Object.keys(answer('/api/health', '503').properties).sort()).toEqual(['db', 'ok', 'version']);
  });

  type Operation = { requestBody?: unknown; parameters?: { in: string; name: string }[]; security?: unknown[]; responses: Record<string, unknown> };
  const operation = (path: string, method: string) => doc.paths[path]![method] as Operation;

  it('gives each route the failures it can answer: 400 for input, 401/403 and security for who may call, 404 for a record, 429 under a limit', () => {
    const createPlan = operation('/api/admin/plans', 'post');
    expect(createPlan.requestBody).toBeDefined();
    expect(Object.keys(createPlan.responses).sort()).toEqual(['201', '400', '401', '403', 'default']);
    expect(createPlan.security).toEqual([{ session: [] }, { bearer: [] }]);

    const deleteAccount = operation('/api/accounts/{id}', 'delete');
    expect(Object.keys(deleteAccount.responses).sort()).toEqual(['204', '401', '403', '404', 'default']);
    expect((deleteAccount.responses['403'] as { description: string }).description).toContain('csrf_failed');
    // Each failure refers to the one schema of `{ code, message }` in the components, which lists every code.
    expect(deleteAccount.responses['404']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } } });
    const apiError = (doc as unknown as { components: { schemas: Record<string, { properties: { code: { enum: string[] } } }> } }).components.schemas.ApiError!;
    expect(apiError.properties.code.enum).toEqual(expect.arrayContaining(['validation_failed', 'not_found', 'rate_limited', 'payment_required']));

    expect(Object.keys(operation('/api/auth/otp', 'post').responses).sort()).toEqual(['200', '400', '429', 'default']);
    expect(operation('/api/auth/otp', 'post').security).toBeUndefined();
    expect(Object.keys(operation('/api/me', 'get').responses).sort()).toEqual(['200', '401', 'default']);
    expect(operation('/api/admin/users/{id}', 'patch').parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id' })]);
    expect(operation('/api/admin/transactions', 'get').parameters?.map((parameter) => parameter.in)).toContain('query');
  });

  it('docs/api.md describes every route of the document, and no route the server does not have', () => {
    const written = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
    // `GET /api/accounts/:id/devices` and `DELETE /api/accounts/:id/devices/:deviceId` · … as docs/api.md writes them.
    // The first cell of each row of its tables (a cell may hold `\|` inside its code).
    const firstCells = written
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split(/(?<!\\)\|/)[1]!)
      .join('\n');
    const inDocs = new Set(
      [...firstCells.matchAll(/`((?:GET|POST|PUT|PATCH|DELETE)(?:, (?:GET|POST|PUT|PATCH|DELETE))*) (\/[^`\s?]*)/g)].flatMap(([, methods, path]) =>
        methods!.split(', ').map((method) => `${method.toLowerCase()} ${openApiPath(path!)}`),
      ),
    );
    // A wildcard route (`/sub/*`) is described by its one parameter (`/sub/:token`).
    const described = (route: string) =>
      inDocs.has(route) ||
      (route.endsWith('/{*}') && [...inDocs].some((entry) => entry.startsWith(route.slice(0, -3)) && /^\{\w+\}$/.test(entry.slice(route.length - 3))));
    const inDocument = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));
    expect(
      inDocument.filter((route) => !described(route)),
      'routes docs/api.md does not describe',
    ).toEqual([]);
    const wildcards = inDocument.filter((route) => route.endsWith('/{*}')).map((route) => route.slice(0, -3));
    const exists = (route: string) =>
      inDocument.includes(route) || wildcards.some((prefix) => route.startsWith(prefix) && /^\{\w+\}$/.test(route.slice(prefix.length)));
    expect(
      [...inDocs].filter((route) => !exists(route)),
      'routes docs/api.md describes that the server does not have',
    ).toEqual([]);
  });

  it('every route describes its answer, but those that answer no JSON (a file, a redirect, a page, a subscription)', () => {
    const notJson = new Set(['get /api/admin/gift-codes/{id}/csv', 'get /r/{code}', 'get /sub', 'get /sub/{*}', 'get /open/{app}', 'post /api/auth/logout']);
    const undescribed = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => !Object.keys((op as Operation).responses).some((status) => /^2\d\d$/.test(status)))
        .map(([method]) => `${method} ${path}`),
    );
    expect(undescribed.filter((route) => !notJson.has(route))).toEqual([]);
  });

  it('every route that needs a signed-in caller says so', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (!path.startsWith('/api/admin/')) continue;
      for (const [method, op] of Object.entries(methods)) expect((op as Operation).responses['403'], `${method} ${path}`).toBeDefined();
    }
  });
});

describe('input is checked by the route schema', () => {
  const env = useTestEnvironment('sqlite');
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db });
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('a bad body is a 400 validation_failed naming each field, after the caller is known (a stranger gets 401)', async () => {
    const stranger = await t.app.inject({ method: 'POST', url: '/api/admin/plans', payload: { name: 5 } });
    expect(stranger.statusCode).toBe(401);
    expect(stranger.json()).toMatchObject({ code: 'unauthenticated' });
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/otp', payload: { email: 'not-an-address' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', fields: { email: expect.any(String) } });
    const none = await t.app.inject({ method: 'POST', url: '/api/auth/otp' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'validation_failed', fields: { email: expect.any(String) } });
  });
});

describe('answers go out through their schemas', () => {
  const Answer = z.object({ id: z.string(), name: z.string() });
  async function appWith(strictAnswers: boolean) {
    const app = Fastify({ logger: false });
    await app.register(openApiPlugin, { publicUrl: new URL('http://localhost:3000'), strictAnswers });
    app.get('/thing', { schema: { response: { 200: Answer } } }, async () => ({ id: 't1', name: 'Thing', secret: 'never-sent' }));
    app.get('/nested', { schema: { response: { 200: z.object({ items: z.array(Answer) }) } } }, async () => ({
      items: [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B', extra: 1 },
      ],
    }));
    return app;
  }

  it('in tests, an answer with a field its schema does not declare fails, naming the field', async () => {
    const app = await appWith(true);
    const thing = await app.inject({ method: 'GET', url: '/thing' });
    expect(thing.statusCode).toBe(500);
    expect(thing.body).not.toContain('never-sent');
    expect((await app.inject({ method: 'GET', url: '/nested' })).statusCode).toBe(500);
    await app.close();
  });

  it('in tests, an answer sent already made (a kept JSON string) is held to its schema too', async () => {
    const app = await appWith(true);
    app.get('/made', { schema: { response: { 200: Answer } } }, async (_request, reply) =>
      reply.type('application/json').send('{"id":"t1","name":"Thing","secret":"s"}'),
    );
    app.get('/made-wrong', { schema: { response: { 200: Answer } } }, async (_request, reply) => reply.type('application/json').send('{"id":"t1"}'));
    app.get('/made-right', { schema: { response: { 200: Answer } } }, async (_request, reply) =>
      reply.type('application/json').send('{"id":"t1","name":"Thing"}'),
    );
    expect((await app.inject({ method: 'GET', url: '/made' })).statusCode).toBe(500);
    expect((await app.inject({ method: 'GET', url: '/made-wrong' })).statusCode).toBe(500);
    expect((await app.inject({ method: 'GET', url: '/made-right' })).json()).toEqual({ id: 't1', name: 'Thing' });
    await app.close();
  });

  it('in production, what the schema does not declare is left out', async () => {
    const app = await appWith(false);
    const thing = await app.inject({ method: 'GET', url: '/thing' });
    expect(thing.statusCode).toBe(200);
    expect(thing.json()).toEqual({ id: 't1', name: 'Thing' });
    expect((await app.inject({ method: 'GET', url: '/nested' })).json()).toEqual({
      items: [
        { id: 'a', name: 'A' },
        { id: 'b', name: 'B' },
      ],
    });
    await app.close();
  });

  it('in production, an answer off its schema (a field missing, a value it does not list) is sent with only what the schema declares, never a 500', async () => {
    const app = Fastify({ logger: false });
    await app.register(openApiPlugin, { publicUrl: new URL('http://localhost:3000'), strictAnswers: false });
    const Plan = z.object({ id: z.string(), status: z.enum(['active', 'hidden']), price: z.number().int(), tags: z.array(z.object({ name: z.string() })) });
    app.get('/plan', { schema: { response: { 200: Plan } } }, async () => ({ id: 'p1', status: 'archived', tags: [{ name: 'a', internal: 1 }], secret: 's' }));
    const res = await app.inject({ method: 'GET', url: '/plan' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'p1', status: 'archived', tags: [{ name: 'a' }] });
    await app.close();
  });

  it('names the undeclared fields by their path', () => {
    expect(undeclaredFields({ a: 1, b: { c: 2, d: [{ e: 1, f: 2 }] }, g: undefined }, { a: 1, b: { c: 2, d: [{ e: 1 }] } })).toEqual(['b.d[0].f']);
  });
});
