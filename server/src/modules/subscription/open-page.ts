/**
 * `GET /open/<app>?url=<our /sub link>`: an https page that opens a VPN app's deep link. Telegram (and some
 * mail apps) refuse custom schemes in buttons and links, so the bot and e-mails link here, and the page hands
 * the browser on to `happ://…`, `v2raytun://…` (a meta refresh, no script), with a button to tap again, the link
 * to copy, and the `/sub` page for the other apps. Only our own `/sub` links are opened: anything else is
 * refused, so the page can never send a browser elsewhere.
 */
import { deepLinkFor, VPN_CLIENT_APPS } from '../../../../shared/deep-links.js';
import type { Locale } from '../../../../shared/locales.js';
import { escapeHtml } from '../../../../shared/site-template.js';
import { pageText, type PageMessageKey } from './page-messages/index.js';
import { pageHead } from './subscription-page.js';

/** `/sub/<token>`, a format suffix allowed (and dropped: each app's link adds the one it needs). */
const SUB_PATH = /^\/sub\/([A-Za-z0-9_-]{16,128})(?:\/(?:links|v2ray|sing-box|clash-meta|clash))?\/?$/;

/** Our plain `/sub` link when `raw` is one on an address of ours (`origins`), else null. */
export function ownSubscriptionLink(raw: string | undefined, origins: ReadonlySet<string>): string | null {
  if (!raw || raw.length > 2048) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  const match = SUB_PATH.exec(url.pathname);
  if (!match || !origins.has(url.origin) || url.username || url.password) return null;
  return `${url.origin}/sub/${match[1]}`;
}

export interface OpenPageInput {
  appId: string;
  url: string | undefined;
  /** The origins our `/sub` links are on (PUBLIC_URL's, and the spare subscription domains). */
  origins: ReadonlySet<string>;
  brandName: string;
  locale: Locale;
}

export interface OpenPageReply {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

function page(locale: Locale, title: string, body: string, refresh: string | null): string {
  return `${pageHead(locale, title, refresh)}
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export function renderOpenPage(input: OpenPageInput): OpenPageReply {
  const { locale } = input;
  const t = (key: PageMessageKey, values: Record<string, string | number> = {}) => escapeHtml(pageText(locale, key, values));
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'content-language': locale,
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex, nofollow',
    'referrer-policy': 'no-referrer',
  };
  const brand = `<p class="brand">${escapeHtml(input.brandName)}</p>`;
  const app = VPN_CLIENT_APPS.find((candidate) => candidate.id === input.appId);
  const link = ownSubscriptionLink(input.url, input.origins);
  if (!app || !link) {
    const why = app ? t('open.refused', { brand: input.brandName }) : t('open.unknownApp');
    return {
      statusCode: app ? 400 : 404,
      headers,
      body: page(
        locale,
        pageText(locale, 'open.refusedTitle'),
        `${brand}\n<h1>${t('open.refusedTitle')}</h1>\n<p class="notice" role="alert">${why}</p>`,
        null,
      ),
    };
  }
  const href = deepLinkFor(app, link, input.brandName).href;
  const body = `${brand}
<h1>${t('open.heading', { app: app.name })}</h1>
<section class="card">
<p><a class="btn primary" href="${escapeHtml(href)}">${t('open.button', { app: app.name })}</a></p>
<p class="muted">${t('open.help', { app: app.name })}</p>
<div class="link"><input type="text" readonly dir="ltr" aria-label="${t('page.linkLabel')}" value="${escapeHtml(link)}"></div>
<p><a href="${escapeHtml(link)}">${t('open.otherWays')}</a></p>
</section>`;
  return { statusCode: 200, headers, body: page(locale, pageText(locale, 'open.title', { app: app.name, brand: input.brandName }), body, href) };
}
