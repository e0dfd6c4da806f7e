import { Validator } from '@seriousme/openapi-schema-validator';
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
  afterAll(async () => { await t.app.close(); });

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
      (doc.paths[path]?.get as { responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }> }).responses[status]!.content['application/json']!.schema;
    expect(Object.keys(answer('/api/me', '200').properties).sort()).toEqual(['email', 'id', 'locale', 'role', 'trialUsed']);
    expect(Object.keys(answer('/api/health', '503').properties).sort()).toEqual(['db', 'ok', 'version']);
  });
});

describe('answers go out through their schemas', () => {
  const Answer = z.object({ id: z.string(), name: z.string() });
  async function appWith(strictAnswers: boolean) {
    const app = Fastify({ logger: false });
    await app.register(openApiPlugin, { publicUrl: new URL('http://localhost:3000'), strictAnswers });
    app.get('/thing', { schema: { response: { 200: Answer } } }, async () => ({ id: 't1', name: 'Thing', secret: 'never-sent' }));
    app.get('/nested', { schema: { response: { 200: z.object({ items: z.array(Answer) }) } } }, async () => ({ items: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B', extra: 1 }] }));
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

  it('in production, what the schema does not declare is left out', async () => {
    const app = await appWith(false);
    const thing = await app.inject({ method: 'GET', url: '/thing' });
    expect(thing.statusCode).toBe(200);
    expect(thing.json()).toEqual({ id: 't1', name: 'Thing' });
    expect((await app.inject({ method: 'GET', url: '/nested' })).json()).toEqual({ items: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] });
    await app.close();
  });

  it('names the undeclared fields by their path', () => {
    expect(undeclaredFields({ a: 1, b: { c: 2, d: [{ e: 1, f: 2 }] }, g: undefined }, { a: 1, b: { c: 2, d: [{ e: 1 }] } })).toEqual(['b.d[0].f']);
  });
});
