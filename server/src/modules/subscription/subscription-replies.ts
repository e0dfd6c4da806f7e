/**
 * The answers of `/sub` other than the configuration itself, and the headers every answer to a client carries:
 * the branded page a browser gets, the text a client of a blocked account gets, the placeholder a refused device
 * gets, and the page that opens an app's deep link. Pages and refusals are in their reader's language.
 */
import { platformFromUserAgent } from '../../../../shared/deep-links.js';
import type { Locale } from '../../../../shared/locales.js';
import { localeFromAcceptLanguage } from '../../lib/locale.js';
import type { AccountState, BlockedState } from './account-state.js';
import { appHeaders } from './app-headers.js';
import type { DeviceCheck } from './device-admission.js';
import { placeholderBody } from './device-placeholder.js';
import { renderOpenPage, type OpenPageReply } from './open-page.js';
import { pageText } from './page-messages/index.js';
import { b64, type Brand } from './subscription-brand.js';
import type { PanelCopy, SubscriptionUserinfo } from './subscription-content.js';
import type { SubscriptionContext } from './subscription-context.js';
import type { SubscriptionReply, SubscriptionRequest } from './subscription-deps.js';
import { CONTENT_TYPES, type SubscriptionFormat } from './subscription-format.js';
import { pageNotice, renderQrSvg, renderSubscriptionPage } from './subscription-page.js';
import type { SubscriptionAccount } from './subscription.repo.js';

/** How long an owner's language is reused for the announcement before it is read again. */
const OWNER_LOCALE_TTL_MS = 5 * 60_000;

function commonHeaders(
  ctx: SubscriptionContext,
  account: SubscriptionAccount,
  current: Brand,
  panelUsage: SubscriptionUserinfo | null,
  locale: Locale = 'en',
): Record<string, string> {
  return appHeaders({ account, panelUsage, settings: current.app, profileTitle: current.profileTitle, locale, links: ctx.links });
}

/**
 * The language of the announcement an account's answers carry: only asked for (and kept a while per
 * owner) when the operator's announcement differs by language.
 */
export async function announceLocale(
  ctx: SubscriptionContext,
  account: SubscriptionAccount,
  current: Brand,
  request: SubscriptionRequest,
  now: number,
): Promise<Locale> {
  if (!current.app.announceByLanguage) return 'en';
  const kept = ctx.ownerLocales.get(account.userId);
  if (kept && now - kept.at < OWNER_LOCALE_TTL_MS) return kept.locale;
  const locale = await readerLocale(ctx, account, request);
  ctx.ownerLocales.set(account.userId, { locale, at: now });
  return locale;
}

/**
 * The headers of a successful client answer, made once per (panel copy, account row, brand, format,
 * announcement language) and reused while all stay the same: the cached path then allocates almost nothing.
 * (No `Vary`: every answer is `no-store`, so no shared cache keeps one to vary.)
 */
export function clientHeaders(
  ctx: SubscriptionContext,
  copy: PanelCopy,
  account: SubscriptionAccount,
  current: Brand,
  format: SubscriptionFormat,
  locale: Locale,
): Record<string, string> {
  const memo = copy.answers[format];
  if (memo && memo.account === account && memo.brand === current && memo.locale === locale) return memo.headers;
  const headers = commonHeaders(ctx, account, current, copy.usage, locale);
  headers['content-type'] = CONTENT_TYPES[format];
  headers['content-disposition'] = current.contentDisposition;
  copy.answers[format] = { account, brand: current, locale, headers };
  return headers;
}

/**
 * The language a page or a refusal is in: its owner's (read here, not with the row: only these answers show
 * it); until they have one, or when it cannot be read, the client's.
 */
async function readerLocale(ctx: SubscriptionContext, account: SubscriptionAccount, request: SubscriptionRequest): Promise<Locale> {
  const owner = await ctx.repo.ownerLocale(account.userId).catch(() => null);
  return owner ?? localeFromAcceptLanguage(request.acceptLanguage);
}

/** The branded page a browser gets: the link, its QR code and the account's usage, or why it cannot be used (403). */
export async function page(
  ctx: SubscriptionContext,
  account: SubscriptionAccount,
  token: string,
  state: AccountState,
  request: SubscriptionRequest,
  now: Date,
): Promise<SubscriptionReply> {
  const current = await ctx.brand.get(now.getTime());
  const subscriptionUrl = `${current.activeOrigin}/sub/${token}`;
  const usable = state === 'active' || state === 'on_hold' || state === 'pending';
  const locale = await readerLocale(ctx, account, request);
  const pageLinks = ctx.localizedLinks[locale];
  const html = renderSubscriptionPage({
    locale,
    brandName: current.brandName,
    supportEmail: current.supportEmail,
    subscriptionUrl,
    dashboardUrl: pageLinks.dashboard,
    supportUrl: pageLinks.support,
    username: account.username,
    status: state,
    notice: state === 'active' || state === 'on_hold' ? null : pageNotice(state, pageLinks, account.paid, locale),
    usedBytes: account.usedTrafficBytes ?? 0,
    limitBytes: account.dataLimitBytes,
    expiresAt: account.expireDate,
    platform: platformFromUserAgent(request.userAgent),
    now,
    qrSvg: usable ? await renderQrSvg(subscriptionUrl) : null,
  });
  return {
    statusCode: usable ? 200 : 403,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-language': locale,
      'cache-control': 'no-store',
      'x-robots-tag': 'noindex, nofollow',
      'referrer-policy': 'no-referrer',
    },
    body: html,
  };
}

/** Why the account cannot be used, as the VPN client shows it: in the owner's language (until they have one, the client's). */
export async function blockedReply(
  ctx: SubscriptionContext,
  account: SubscriptionAccount,
  state: BlockedState,
  panelUsage: SubscriptionUserinfo | null,
  request: SubscriptionRequest,
  now: Date,
): Promise<SubscriptionReply> {
  const current = await ctx.brand.get(now.getTime());
  const locale = await readerLocale(ctx, account, request);
  return {
    statusCode: 403,
    headers: { ...commonHeaders(ctx, account, current, panelUsage, locale), 'content-type': 'text/plain; charset=utf-8', 'content-language': locale },
    body: pageNotice(state, ctx.localizedLinks[locale], account.paid, locale),
  };
}

/**
 * What a refused device gets: 200 with one placeholder entry in its format, named with the reason in
 * the owner's language (until they have one, the client's), and our usual headers. Remnawave's
 * `x-hwid-*` headers say the same to the clients that read them (v2RayTun reads `x-hwid-limit`), and
 * `announce` shows the text in Happ.
 */
export async function deviceRefusal(
  ctx: SubscriptionContext,
  account: SubscriptionAccount,
  refusal: Exclude<DeviceCheck, { allowed: true }>,
  format: SubscriptionFormat,
  request: SubscriptionRequest,
  now: Date,
): Promise<SubscriptionReply> {
  const current = await ctx.brand.get(now.getTime());
  const locale = await readerLocale(ctx, account, request);
  const dashboard = ctx.localizedLinks[locale].dashboard;
  const text =
    refusal.reason === 'limit_reached'
      ? pageText(locale, 'device.limitReached', { count: refusal.count, limit: refusal.limit, dashboard })
      : pageText(locale, 'device.idRequired', { dashboard });
  return {
    statusCode: 200,
    headers: {
      ...commonHeaders(ctx, account, current, null),
      'content-type': CONTENT_TYPES[format],
      'content-disposition': current.contentDisposition,
      'content-language': locale,
      announce: `base64:${b64(text)}`,
      'x-hwid-active': 'true',
      'x-hwid-limit': 'true',
      [refusal.reason === 'limit_reached' ? 'x-hwid-max-devices-reached' : 'x-hwid-not-supported']: 'true',
    },
    body: placeholderBody(format, text, current.brandName),
  };
}

/** `GET /open/<app>?url=`: the page that opens an app's deep link for one of our `/sub` links (open-page.ts). */
export async function openApp(ctx: SubscriptionContext, request: { appId: string; url: string | undefined; acceptLanguage?: string }): Promise<OpenPageReply> {
  const current = await ctx.brand.get(ctx.clock().getTime());
  return renderOpenPage({
    appId: request.appId,
    url: request.url,
    origins: current.ourOrigins,
    brandName: current.brandName,
    locale: localeFromAcceptLanguage(request.acceptLanguage),
  });
}
