import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { PublicConfig } from '../../../shared/config.js';
import { splitLocalePath } from '../../../shared/locales.js';
import { inLanguage } from '../../../shared/plan-translations.js';
import type { Plan } from '../../../shared/plans.js';
import { PLACEHOLDER_CONFIG, PLANS_SLOT, ROOT_SLOT } from '../../../shared/site-template.js';
import type { Clock } from '../lib/clock.js';

/** What the server bundle (web/src/entry-server.tsx, built into dist/ssr) offers the server. */
export interface ServerBundle {
  renderPage(url: string, config: PublicConfig, plans?: Plan[]): Promise<string>;
}

/**
 * The plans the public pages show, the store currency their prices are in, and a number that changes when
 * an admin changes either here (a plan, or the settings).
 */
export interface PlanSource {
  version(): number;
  list(): Promise<Plan[]>;
  currency(): Promise<string>;
}

/**
 * How long a rendered page is reused. A change made on this instance shows at once (the version
 * moves); this bounds how long another instance, or a change of settings, takes to show.
 */
export const LIVE_PAGE_TTL_MS = 5_000;

/** JSON inside a <script> element: `<` escaped, so the text cannot close the element. */
export const embedJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

export const loadServerBundle = async (path: string): Promise<ServerBundle> => (await import(pathToFileURL(path).href)) as ServerBundle;

/** A live template drawn in the browser instead: empty root, no plans (the page fetches them). */
export const browserDrawn = (template: string) => template.replace(ROOT_SLOT, '').replace(PLANS_SLOT, '');

interface CachedPage {
  version: number;
  expiresAt: number;
  html: Promise<string>;
}

/**
 * Pages that show the plans on sale (the pricing page, the landing page's "from $X/month"): the
 * React app renders them with the current plans, the same plans are embedded for hydration, and
 * the result is kept until a plan changes or LIVE_PAGE_TTL_MS passes. Requests that arrive during
 * a render share it. Once a page is stale by time alone, the last one is served while it renders again;
 * if rendering fails, the last page rendered is served (or, with none, the page is drawn in the browser).
 */
export function createLivePages(deps: { loadBundle: () => Promise<ServerBundle>; plans: PlanSource; clock: Clock; log: FastifyBaseLogger; ttlMs?: number }) {
  const ttlMs = deps.ttlMs ?? LIVE_PAGE_TTL_MS;
  const cache = new Map<string, CachedPage>();
  let bundle: Promise<ServerBundle> | undefined;

  async function render(path: string, template: string): Promise<string> {
    bundle ??= deps.loadBundle();
    const [plans, currency, { renderPage }] = await Promise.all([deps.plans.list(), deps.plans.currency(), bundle]);
    const body = await renderPage(path, { ...PLACEHOLDER_CONFIG, currency }, plans);
    return template.replace(ROOT_SLOT, () => body).replace(PLANS_SLOT, () => embedJson(inLanguage(plans, splitLocalePath(path).locale)));
  }

  /** The last page rendered for each path: what is served while a new render fails (the database is down). */
  const lastGood = new Map<string, string>();

  async function renderOrFallBack(path: string, template: string): Promise<string> {
    try {
      const html = await render(path, template);
      lastGood.set(path, html);
      return html;
    } catch (err) {
      bundle = undefined;
      const previous = lastGood.get(path);
      deps.log.error(
        { err, path },
        previous
          ? 'rendering a page with the plans failed; the last rendered page is served'
          : 'rendering a page with the plans failed; it is served to be drawn in the browser',
      );
      return previous ?? browserDrawn(template);
    }
  }

  return {
    /** The page with the current plans in it (settings tokens still to fill). */
    async render(path: string, template: string): Promise<string> {
      const version = deps.plans.version();
      const now = deps.clock().getTime();
      const cached = cache.get(path);
      if (cached && cached.version === version && now < cached.expiresAt) return cached.html;
      const html = renderOrFallBack(path, template);
      cache.set(path, { version, expiresAt: now + ttlMs, html });
      // Stale by time alone (no plan changed here): the last page now, the new one for the next visitor.
      const previous = lastGood.get(path);
      if (cached && cached.version === version && previous) return previous;
      return html;
    },
  };
}

export type LivePages = ReturnType<typeof createLivePages>;
