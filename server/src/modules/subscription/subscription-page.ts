/**
 * The page a browser gets at `/sub/:token`: brand, usage, a QR code of the link and per-platform
 * "Open in <app>" buttons. A server-rendered string: no scripts (the site's CSP is `script-src 'self'`),
 * inline styles only, the QR code as inline SVG, and every interpolated value escaped. It never holds
 * anything of the panel: it is drawn from our own row and our own link.
 */
import QRCode from 'qrcode';
import { PLATFORM_NAMES, type Platform } from '../../../../shared/platforms.js';
import { escapeHtml } from '../../../../shared/site-template.js';
import { DEEP_LINK_PLATFORMS, deepLinksFor } from '../../../../shared/deep-links.js';
import { DEFAULT_LOCALE, textDirection, type Locale } from '../../../../shared/locales.js';
import { DATE_LOCALE, formatDataSize, formatPercent, type DataUnit } from '../../mail/money.js';
import { pageText, type PageMessageKey } from './page-messages/index.js';
import { LruMap } from '../../lib/lru-map.js';
import { DAY_MS } from '../../../../shared/constants.js';

/** What the page shows about the account. `pending` = paid or free, but not on a panel yet. */
export type PageStatus = 'active' | 'on_hold' | 'pending' | 'suspended' | 'disabled' | 'expired' | 'limited' | 'inactive';

export interface SubscriptionPageInput {
  brandName: string;
  supportEmail: string;
  /** Our link, PUBLIC_URL/sub/<token>. */
  subscriptionUrl: string;
  dashboardUrl: string;
  supportUrl: string;
  username: string;
  status: PageStatus;
  /** Said prominently when the link cannot be used now (the same words a VPN client gets). */
  notice: string | null;
  usedBytes: number;
  /** null = unlimited. */
  limitBytes: number | null;
  expiresAt: Date | null;
  /** From the browser's User-Agent: its buttons come first and open. */
  platform: Platform | null;
  now: Date;
  /** `renderQrSvg(subscriptionUrl)`; null leaves the QR code out. */
  qrSvg: string | null;
  /** The account owner's language (English when not given): texts, `<html lang dir>`, dates and sizes. */
  locale?: Locale;
}

const qrCache = new LruMap<string, string>(1000);

/** The QR code of `url` as an SVG element (memoised: the same link draws the same code). */
export async function renderQrSvg(url: string): Promise<string> {
  const cached = qrCache.get(url);
  if (cached) return cached;
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'H', margin: 4, width: 192 });
  qrCache.set(url, svg);
  return svg;
}

/**
 * The site's icon (web/public/favicon.svg), inline: the page stands on its own (it is served where the web
 * build may not be, and never loads anything from the site), and a browser that finds no icon declared asks
 * for /favicon.ico, which does not exist (a 404 in the console). The CSP allows data: images.
 */
export const PAGE_ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4f46e5"/><path d="M16 6l8 3v6c0 5.5-3.6 9-8 11-4.4-2-8-5.5-8-11V9l8-3z" fill="#fff"/></svg>';
export const PAGE_ICON = `data:image/svg+xml,${encodeURIComponent(PAGE_ICON_SVG)}`;

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** Bytes as the product counts them (1 GB = 1024³ bytes), in the reader's digits and unit names. */
export function formatBytes(bytes: number, locale: Locale = DEFAULT_LOCALE): string {
  const value = Math.max(0, bytes);
  const [amount, unit, digits]: [number, DataUnit, number] =
    value >= GIB
      ? [value / GIB, 'gigabyte', value >= 100 * GIB ? 0 : 2]
      : value >= MIB
        ? [value / MIB, 'megabyte', value >= 100 * MIB ? 0 : 1]
        : value >= 1024
          ? [value / 1024, 'kilobyte', 0]
          : [value, 'byte', 0];
  if (locale !== 'en') return formatDataSize(amount, unit, locale, digits);
  const short = { gigabyte: 'GB', megabyte: 'MB', kilobyte: 'KB', byte: 'B' }[unit];
  return `${unit === 'byte' ? amount : amount.toFixed(digits)} ${short}`;
}

const dateFormats = new Map<Locale, Intl.DateTimeFormat>();

/** "31 Jan 2030" (English), "31 янв. 2030 г.", "۱۱ بهمن ۱۴۰۸", "2030年1月31日": the day, in UTC. */
function formatShortDate(date: Date, locale: Locale): string {
  let format = dateFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(DATE_LOCALE[locale], { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
    dateFormats.set(locale, format);
  }
  return format.format(date);
}

/** A message with one value that is already HTML: the text is escaped around it. */
function withHtml(text: (marker: string) => string, html: string): string {
  const marker = '\u0000html\u0000';
  return escapeHtml(text(marker)).replace(marker, html);
}

function describeExpiry(expiresAt: Date | null, now: Date, locale: Locale): string {
  const t = (key: PageMessageKey, values: Record<string, string | number> = {}) => pageText(locale, key, values);
  if (!expiresAt) return escapeHtml(t('page.neverExpires'));
  const date = `<time datetime="${escapeHtml(expiresAt.toISOString())}">${escapeHtml(formatShortDate(expiresAt, locale))}</time>`;
  const ms = expiresAt.getTime() - now.getTime();
  if (ms <= 0) return withHtml((marker) => t('page.expiredOn', { date: marker }), date);
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.floor(ms / 3_600_000);
  const left = days >= 1 ? t('page.daysLeft', { days }) : hours >= 1 ? t('page.hoursLeft', { hours }) : t('page.lessThanAnHour');
  return withHtml((marker) => t('page.expiresOn', { date: marker, left }), date);
}

const STATUS_TONES: Record<PageStatus, 'ok' | 'warn' | 'bad'> = {
  active: 'ok',
  on_hold: 'ok',
  pending: 'warn',
  suspended: 'warn',
  disabled: 'bad',
  expired: 'bad',
  limited: 'bad',
  inactive: 'bad',
};

/**
 * The start of a page of ours (this one and `/open/<app>`), to the end of its `<head>`: never indexed, no referrer,
 * our icon and stylesheet inline; `title` is escaped here; `refresh` (escaped) sends the browser on at once.
 */
export function pageHead(locale: Locale, title: string, refresh: string | null = null): string {
  return `<!doctype html>
<html lang="${locale}" dir="${textDirection(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
${refresh ? `<meta http-equiv="refresh" content="0;url=${escapeHtml(refresh)}">\n` : ''}<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/svg+xml" href="${PAGE_ICON}">
<style>${PAGE_STYLE}</style>
</head>`;
}

/** The pages' stylesheet (this page and `/open/<app>`). */
export const PAGE_STYLE = `
:root{color-scheme:light dark;--bg:#f4f6fb;--card:#fff;--text:#14161f;--muted:#5b6275;--line:#e2e6ef;--accent:#2f5bea;--accent-text:#fff;--ok:#0f7b3f;--warn:#9a5b00;--bad:#b42318}
@media (prefers-color-scheme:dark){:root{--bg:#0e1117;--card:#171b24;--text:#eef1f7;--muted:#a3abbd;--line:#2a3040;--accent:#6d8dff;--accent-text:#0e1117;--ok:#4ade80;--warn:#fbbf24;--bad:#f87171}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:44rem;margin:0 auto;padding:1.5rem 1rem 3rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:1rem;padding:1.25rem 1.5rem;margin-top:1rem}
.brand{font-weight:700;font-size:1.1rem;margin:0;color:var(--accent)}
h1{font-size:1.6rem;margin:.25rem 0 .25rem}
h2{font-size:1.15rem;margin:0 0 .75rem}
h3{font-size:1rem;margin:0}
.muted{color:var(--muted)}
.badge{display:inline-block;border-radius:999px;padding:.05rem .6rem;font-size:.85rem;font-weight:600;border:1px solid currentColor}
.tone-ok{color:var(--ok)}.tone-warn{color:var(--warn)}.tone-bad{color:var(--bad)}
.notice{border-inline-start:4px solid var(--bad);padding:.75rem 1rem;background:color-mix(in srgb,var(--bad) 8%,transparent);border-radius:.5rem;font-weight:600}
.notice.tone-warn{border-color:var(--warn);background:color-mix(in srgb,var(--warn) 8%,transparent)}
dl{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:.75rem;margin:0}
dt{color:var(--muted);font-size:.9rem}dd{margin:0;font-weight:600}
.meter{height:.6rem;border-radius:999px;background:var(--line);overflow:hidden;margin-top:1rem}
.meter span{display:block;height:100%;background:var(--accent)}
.qr-row{display:flex;flex-wrap:wrap;gap:1.25rem;align-items:center}
.qr{margin:0;background:#fff;border-radius:.75rem;padding:.25rem;line-height:0}
.qr svg{width:192px;height:192px}
.link{flex:1 1 14rem;min-width:0}
.link input{width:100%;font:inherit;font-size:.9rem;padding:.5rem .6rem;border:1px solid var(--line);border-radius:.5rem;background:var(--bg);color:var(--text)}
details{border-top:1px solid var(--line);padding:.75rem 0}
details:last-of-type{border-bottom:1px solid var(--line)}
summary{cursor:pointer;font-weight:600}
.apps{list-style:none;padding:0;margin:.75rem 0 0;display:flex;flex-wrap:wrap;gap:.5rem}
.btn{display:inline-block;text-decoration:none;border:1px solid var(--accent);color:var(--accent);border-radius:.6rem;padding:.45rem .9rem;font-weight:600}
.btn.primary{background:var(--accent);color:var(--accent-text)}
footer{margin-top:1.5rem;text-align:center;font-size:.9rem}
footer a{color:var(--muted)}
`;

function platformSection(platform: Platform, input: SubscriptionPageInput, open: boolean, locale: Locale): string {
  const buttons = deepLinksFor(platform, input.subscriptionUrl, input.brandName)
    .map((link) => `<li><a class="btn" href="${escapeHtml(link.href)}">${escapeHtml(pageText(locale, 'page.openIn', { app: link.clientName }))}</a></li>`)
    .join('');
  return `<details${open ? ' open' : ''}><summary>${escapeHtml(PLATFORM_NAMES[platform])}</summary><ul class="apps">${buttons}</ul></details>`;
}

export function renderSubscriptionPage(input: SubscriptionPageInput): string {
  const e = escapeHtml;
  const locale = input.locale ?? DEFAULT_LOCALE;
  const t = (key: PageMessageKey, values: Record<string, string | number> = {}) => e(pageText(locale, key, values));
  const brand = e(input.brandName);
  const tone = STATUS_TONES[input.status];
  const usable = input.status === 'active' || input.status === 'on_hold' || input.status === 'pending';

  const used = formatBytes(input.usedBytes, locale);
  const limit = input.limitBytes === null ? pageText(locale, 'page.unlimited') : formatBytes(input.limitBytes, locale);
  const percent = input.limitBytes ? Math.min(100, Math.round((input.usedBytes / input.limitBytes) * 100)) : null;
  const meter =
    percent === null
      ? ''
      : `<div class="meter" role="img" aria-label="${t('page.meterLabel', { percent: formatPercent(percent, locale) })}"><span style="width:${percent}%"></span></div>`;

  const notice = input.notice
    ? `<p class="notice${tone === 'warn' ? ' tone-warn' : ''}" role="alert">${e(input.notice)}</p>` +
      (usable
        ? ''
        : input.status === 'disabled'
          ? `<p><a class="btn primary" href="${e(input.supportUrl)}">${t('page.contactSupport')}</a></p>`
          : `<p><a class="btn primary" href="${e(input.dashboardUrl)}">${t('page.goToDashboard')}</a></p>`)
    : '';

  const order = input.platform ? [input.platform, ...DEEP_LINK_PLATFORMS.filter((p) => p !== input.platform)] : [...DEEP_LINK_PLATFORMS];
  const setup = usable
    ? `<section class="card" aria-labelledby="setup-title">
<h2 id="setup-title">${t('page.setupTitle')}</h2>
<div class="qr-row">
${input.qrSvg ? `<figure class="qr" role="img" aria-label="${t('page.qrLabel')}">${input.qrSvg}</figure>` : ''}
<div class="link"><p class="muted">${t('page.setupHelp')}</p>
<label class="muted" for="sub-link">${t('page.linkLabel')}</label>
<input id="sub-link" type="text" readonly dir="ltr" value="${e(input.subscriptionUrl)}"></div>
</div>
<h3 style="margin-top:1.25rem">${t('page.openInYourApp')}</h3>
${order.map((platform, index) => platformSection(platform, input, input.platform === null || index === 0, locale)).join('\n')}
</section>`
    : '';

  return `${pageHead(locale, pageText(locale, 'page.title', { brand: input.brandName }))}
<body>
<main>
<header>
<p class="brand">${brand}</p>
<h1>${t('page.heading')}</h1>
<p class="muted">${t('page.account')} <strong dir="ltr">${e(input.username)}</strong> · <span class="badge tone-${tone}">${t(`status.${input.status}`)}</span></p>
</header>
${notice}
<section class="card" aria-labelledby="usage-title">
<h2 id="usage-title">${t('page.usage')}</h2>
<dl>
<div><dt>${t('page.dataUsed')}</dt><dd>${t('page.usedOf', { used, limit })}</dd></div>
<div><dt>${t('page.expires')}</dt><dd>${describeExpiry(input.expiresAt, input.now, locale)}</dd></div>
</dl>
${meter}
</section>
${setup}
<footer>
<a href="${e(input.dashboardUrl)}">${t('page.dashboard')}</a> · <a href="${e(input.supportUrl)}">${t('page.support')}</a> · <a href="mailto:${e(input.supportEmail)}">${e(input.supportEmail)}</a>
</footer>
</main>
</body>
</html>
`;
}

/** What the page says about an account that cannot be used now, or is still being set up, in `locale`. */
export function pageNotice(
  state: Exclude<PageStatus, 'active' | 'on_hold'>,
  links: { dashboard: string; support: string },
  paid: boolean,
  locale: Locale,
): string {
  if (state === 'pending') return pageText(locale, paid ? 'notice.paidPending' : 'notice.pending');
  return pageText(locale, `notice.${state}`, { dashboard: links.dashboard, support: links.support });
}
