import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { notFound } from '../errors.js';

const NOT_BUILT_PAGE = '<!doctype html><title>Not built</title><p>The web app is not built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds first).</p>';

/**
 * Serves the built web app from the same port as the API. Hashed assets are cached for a year;
 * any other GET that is not an API call gets index.html, so client-side routes load on refresh.
 */
export const staticSitePlugin = fp(async (app: FastifyInstance, opts: { webDir: string }) => {
  const built = existsSync(join(opts.webDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: opts.webDir,
      setHeaders(reply, path) {
        reply.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/');
    if (!isPage) throw notFound(`No route for ${request.method} ${request.url.split('?')[0]}.`);
    if (!built) return reply.status(503).type('text/html').send(NOT_BUILT_PAGE);
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}, { name: 'static-site' });
