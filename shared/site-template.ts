import type { PublicConfig } from './config.js';
import type { Locale } from './locales.js';

/**
 * Tokens the build leaves in prerendered pages and the server fills in per request from the
 * current settings, so an operator's brand name shows without rebuilding. Shared by the prerender
 * step (writes them) and the server (replaces them).
 */
export const SITE_TOKENS = {
  brandName: '%%BRAND_NAME%%',
  supportEmail: '%%SUPPORT_EMAIL%%',
  publicUrl: '%%PUBLIC_URL%%',
  locationsClaim: '%%LOCATIONS_CLAIM%%',
  /** The store currency's ISO code in capitals ('EUR'), where a page names it in words ("All prices are in EUR"). */
  currency: '%%CURRENCY%%',
  /** On <html data-site-flags>: what the site does not offer, hiding the links that claim it (styles.css). */
  siteFlags: '%%SITE_FLAGS%%',
} as const;

/**
 * The <html data-site-flags> value for these settings: what is not offered, space-separated
 * (`no-protection`, `no-crypto`, `no-trial`: no free trial to promise, `no-payment`: no payment provider on); empty
 * when everything is. styles.css hides `[data-claim]` content of what is not offered, and shows `[data-unless]`
 * content only then.
 */
export function siteFlags(config: Pick<PublicConfig, 'protectionFeatures' | 'paymentMethods' | 'trialOffered'>): string {
  const paid = config.paymentMethods.some((method) => method !== 'wallet' && method !== 'stars');
  return [
    config.protectionFeatures ? null : 'no-protection',
    config.paymentMethods.includes('crypto') ? null : 'no-crypto',
    config.trialOffered ? null : 'no-trial',
    paid ? null : 'no-payment',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The settings pages are rendered with: tokens, filled in per request (fillTemplate). */
export const PLACEHOLDER_CONFIG: PublicConfig = {
  brandName: SITE_TOKENS.brandName,
  supportEmail: SITE_TOKENS.supportEmail,
  locationsClaim: SITE_TOKENS.locationsClaim,
  // Pages are drawn with every feature; the flags on <html> hide what the operator does not offer.
  protectionFeatures: true,
  trialOffered: true,
  cardPaymentsEnabled: false,
  paymentMethods: [],
  stripePublishableKey: null,
  // Named as a token (its capitals are itself); pages with prices are rendered with the store's own currency
  // instead (live-pages.ts), so no amount is ever formatted with it.
  currency: SITE_TOKENS.currency,
  // None: every language's page is drawn with the token, which the server fills with that language's claim.
  siteContentTranslations: {},
};

/** Where the head tags of a page go, and where the public settings are embedded as JSON. */
export const HEAD_SLOT = '<!--app-head-->';
export const CONFIG_SLOT = '<!--app-config-->';
/** Where the plans on sale are embedded as JSON, on the pages that show them (empty elsewhere). */
export const PLANS_SLOT = '<!--app-plans-->';
/** A live page's template holds this inside #root; the server puts the page's HTML there. */
export const ROOT_SLOT = '<!--app-html-->';

/** Written next to the built site: which pages exist and which file holds each. */
export interface SiteManifest {
  /**
   * `live` pages show the plans on sale: their file is a template (ROOT_SLOT in #root) that the
   * server fills on request from the server bundle, so a price change shows without a rebuild.
   * `path` is the address with its language prefix (`/ru/pricing`); `locale` is English when absent.
   */
  pages: Array<{ path: string; file: string; live?: boolean; locale?: Locale }>;
  /** Paths drawn in the browser only (in every language); they get the empty app shell. */
  appPaths: string[];
  /** The English app shell and 404 page… */
  shell: string;
  notFound: string;
  /** …and each other language's. */
  locales?: Partial<Record<Locale, { shell: string; notFound: string }>>;
}

export const SITE_MANIFEST_FILE = 'manifest.json';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);
}
