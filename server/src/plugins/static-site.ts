import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { siteContentFor, type PublicConfig } from '../../../shared/config.js';
import { localizeLocationsClaim } from '../../../shared/locations-claim.js';
import { CONFIG_SLOT, PLANS_SLOT, SITE_MANIFEST_FILE, SITE_TOKENS, escapeHtml, siteFlags, type SiteManifest } from '../../../shared/site-template.js';
import { notFound } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { requestScopedLogger } from '../lib/request-log.js';
import { browserDrawn, createLivePages, loadServerBundle, type PlanSource } from './live-pages.js';
import { createPageCache, sendCompressed } from './page-cache.js';
import { claimOf, offers } from '../../../shared/site-pages.js';
import { DEFAULT_LOCALE, HREFLANG, localizedPath, splitLocalePath, type Locale } from '../../../shared/locales.js';

/** The site's pages are not part of the API's OpenAPI document. */
const SITE_ROUTE = { schema: { hide: true } };

const NOT_BUILT_PAGE =
  '<!doctype html><html lang="en"><title>Not built</title><p>The web app is not built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds first).</p></html>';

export interface StaticSiteOptions {
  /** Vite's client build: assets, favicon. */
  webDir: string;
  /** The prerendered pages and manifest.json (scripts/prerender.ts). */
  siteDir: string;
  publicUrl: URL;
  getPublicConfig(): Promise<PublicConfig>;
  /** The server bundle (dist/ssr/entry-server.js) that renders live pages. */
  serverBundle: string;
  /** The plans live pages show; without it they are drawn in the browser. */
  plans?: PlanSource;
  clock: Clock;
}

interface Site {
  manifest: SiteManifest;
  templates: Map<string, string>;
}

function loadSite(siteDir: string): Site | undefined {
  const manifestPath = join(siteDir, SITE_MANIFEST_FILE);
  if (!existsSync(manifestPath)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as SiteManifest;
  const localized = Object.values(manifest.locales ?? {}).flatMap((files) => [files.shell, files.notFound]);
  const files = [...manifest.pages.map((p) => p.file), manifest.shell, manifest.notFound, ...localized];
  return { manifest, templates: new Map(files.map((file) => [file, readFileSync(join(siteDir, file), 'utf8')])) };
}

/**
 * The page with the current settings filled in, the operator's texts in the page's language (English
 * where none is given); the embedded JSON cannot close its script element. A page that shows no plans
 * embeds none (its plans slot is emptied).
 */
export function fillTemplate(template: string, config: PublicConfig, publicUrl: URL, locale: Locale = DEFAULT_LOCALE): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const content = siteContentFor(config, locale);
  return template
    .replaceAll(SITE_TOKENS.brandName, () => escapeHtml(config.brandName))
    .replaceAll(SITE_TOKENS.supportEmail, () => escapeHtml(config.supportEmail))
    .replaceAll(SITE_TOKENS.publicUrl, () => escapeHtml(publicUrl.origin))
    .replaceAll(SITE_TOKENS.locationsClaim, () => escapeHtml(localizeLocationsClaim(content.locationsClaim, locale)))
    .replaceAll(SITE_TOKENS.currency, () => escapeHtml(config.currency.toUpperCase()))
    .replace(SITE_TOKENS.siteFlags, () => siteFlags(config))
    .replace(CONFIG_SLOT, () => json)
    .replace(PLANS_SLOT, '');
}

/** The language of a site path, its files (shell, 404 page), and the path without the language prefix. */
function localeOf(manifest: SiteManifest, pathname: string) {
  const { locale, path } = splitLocalePath(pathname);
  const files = manifest.locales?.[locale] ?? { shell: manifest.shell, notFound: manifest.notFound };
  return { locale, path, ...files };
}

/** Every page in every language, each with its alternates in the other languages (hreflang). */
function sitemapXml(manifest: SiteManifest, publicUrl: URL): string {
  const languagesOf = new Map<string, Locale[]>();
  for (const page of manifest.pages) {
    const { path } = splitLocalePath(page.path);
    languagesOf.set(path, [...(languagesOf.get(path) ?? []), page.locale ?? DEFAULT_LOCALE]);
  }
  const href = (path: string) => escapeHtml(new URL(path, publicUrl).href);
  const urls = manifest.pages.map((page) => {
    const { path } = splitLocalePath(page.path);
    const alternates = (languagesOf.get(path) ?? []).map(
      (language) => `    <xhtml:link rel="alternate" hreflang="${HREFLANG[language]}" href="${href(localizedPath(language, path))}"/>`,
    );
    return [`  <url>`, `    <loc>${href(page.path)}</loc>`, ...alternates, `  </url>`].join('\n');
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

/** A route pattern's fixed part: `/pay/:token` is every path under `/pay/` (a pattern is no path to list). */
const fixedPart = (path: string) => (path.includes(':') ? path.slice(0, path.indexOf(':')) : path);

function robotsTxt(manifest: SiteManifest, publicUrl: URL): string {
  const privatePaths = ['/api/', ...manifest.appPaths.filter((path) => splitLocalePath(path).locale === DEFAULT_LOCALE).map(fixedPart)];
  // The other languages' private pages, by their prefix (`/ru/dashboard`, …).
  for (const files of Object.keys(manifest.locales ?? {}) as Locale[]) {
    privatePaths.push(...manifest.appPaths.filter((path) => splitLocalePath(path).locale === files).map(fixedPart));
  }
  // `/admin` covers its tabs (`/admin/payments`): a path under another one listed is left out.
  const listed = privatePaths.filter((path) => !privatePaths.some((other) => other !== path && path.startsWith(other.endsWith('/') ? other : `${other}/`)));
  return ['User-agent: *', 'Allow: /', ...listed.map((p) => `Disallow: ${p}`), `Sitemap: ${new URL('/sitemap.xml', publicUrl).href}`, ''].join('\n');
}

/**
 * Serves the website from the same port as the API: prerendered public pages (with the brand name,
 * support e-mail and public URL of the current settings), live pages rendered with the plans on
 * sale (live-pages.ts), the app shell for browser-only pages, the 404 page with status 404, hashed
 * assets cached for a year, sitemap.xml and robots.txt.
 */
export const staticSitePlugin = fp(
  async (app: FastifyInstance, opts: StaticSiteOptions) => {
    const site = loadSite(opts.siteDir);
    const { plans } = opts;
    const livePages =
      plans && createLivePages({ loadBundle: () => loadServerBundle(opts.serverBundle), plans, clock: opts.clock, log: requestScopedLogger(app.log) });
    if (existsSync(opts.webDir)) {
      await app.register(fastifyStatic, {
        root: opts.webDir,
        index: false,
        preCompressed: true,
        // A route per built file, found once at start (the build does not change under a running server): any
        // other path goes straight to the 404 page, without looking for files on disk (three stat calls with
        // the precompressed variants).
        wildcard: false,
        // The HTML files there are templates, served as pages by the routes below; .vite/ holds the build's manifest.
        allowedPath: (pathName) => !pathName.endsWith('.html') && !pathName.startsWith('/.vite/'),
        setHeaders(reply, path) {
          reply.header('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
        },
      });
    }

    const pages = createPageCache();
    /** The settings' text, the page cache's key: serialised once per settings object read. */
    const configKeys = new WeakMap<PublicConfig, string>();
    const configKey = (config: PublicConfig) => {
      let key = configKeys.get(config);
      if (key === undefined) configKeys.set(config, (key = JSON.stringify(config)));
      return key;
    };

    async function sendPage(request: FastifyRequest, reply: FastifyReply, file: string, locale: Locale, status = 200, live?: { path: string }) {
      const template = site?.templates.get(file);
      if (!template) return reply.status(503).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
      const source = !live ? template : livePages ? await livePages.render(live.path, template) : browserDrawn(template);
      const config = await opts.getPublicConfig();
      const page = await pages.get(`${file}|${live?.path ?? ''}`, source, configKey(config), () => fillTemplate(source, config, opts.publicUrl, locale));
      return sendCompressed(request, reply, page, status);
    }

    if (site) {
      // Pages are sent precompressed (page-cache.ts): their Content-Encoding keeps compress-answers.ts away.
      for (const page of site.manifest.pages) {
        const { locale, path, notFound } = localeOf(site.manifest, page.path);
        const claim = claimOf(path);
        app.get(page.path, SITE_ROUTE, async (request, reply) => {
          // A page about a feature the operator does not offer does not exist for visitors.
          if (claim && !offers(await opts.getPublicConfig(), claim)) return sendPage(request, reply, notFound, locale, 404);
          return sendPage(request, reply, page.file, page.locale ?? locale, 200, page.live ? { path: page.path } : undefined);
        });
      }
      for (const path of site.manifest.appPaths) {
        const { locale, shell } = localeOf(site.manifest, path);
        app.get(path, SITE_ROUTE, (request, reply) => sendPage(request, reply, shell, locale));
      }
      app.get('/sitemap.xml', SITE_ROUTE, async (_request, reply) => {
        const config = await opts.getPublicConfig();
        const offered = { ...site.manifest, pages: site.manifest.pages.filter((page) => offers(config, claimOf(splitLocalePath(page.path).path))) };
        return reply.type('application/xml').send(sitemapXml(offered, opts.publicUrl));
      });
      // The same for the whole life of the process (the build's paths, PUBLIC_URL): written once.
      const robots = robotsTxt(site.manifest, opts.publicUrl);
      app.get('/robots.txt', SITE_ROUTE, async (_request, reply) => reply.type('text/plain').send(robots));
    }

    app.setNotFoundHandler(async (request, reply) => {
      const isPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api/');
      if (!isPage) throw notFound(`No route for ${request.method} ${request.url.split('?')[0]}.`);
      const { locale, notFound: file } = site ? localeOf(site.manifest, request.url.split('?')[0]!) : { locale: DEFAULT_LOCALE, notFound: '' };
      return sendPage(request, reply, file, locale, 404);
    });
  },
  { name: 'static-site' },
);
