import { z } from 'zod';
import type { SiteContentTranslations } from './app-settings.js';
import type { PaymentMethod } from './billing-schemas.js';
import type { Locale } from './locales.js';

/** `GET /api/config`: the public settings every screen may read. */
export interface PublicConfig {
  brandName: string;
  supportEmail: string;
  /** Site content the operator owns (Settings → Site content). */
  locationsClaim: string;
  /** Whether the site advertises threat protection and ad blocking (off when the servers do not filter). */
  protectionFeatures: boolean;
  /**
   * Whether the site promises a free trial: a trial plan is on sale and the operator has not switched the promise off
   * (Settings, `trialPromise`). Off: no "free trial" text or button on the public pages.
   */
  trialOffered: boolean;
  cardPaymentsEnabled: boolean;
  /** How a customer can pay now ('card', 'crypto'), the first offered first; empty: nothing is on sale for money. */
  paymentMethods: PaymentMethod[];
  stripePublishableKey: string | null;
  /** The store's currency (lower-case ISO code): plan prices are minor units of it. */
  currency: string;
  /** Site content in the other languages (read it through `siteContentFor`). */
  siteContentTranslations: SiteContentTranslations;
}

/** The operator's site content in `locale`: each field in that language where given, else the English one. */
export function siteContentFor(config: Pick<PublicConfig, 'locationsClaim' | 'siteContentTranslations'>, locale: Locale): { locationsClaim: string } {
  const translation = locale === 'en' ? undefined : config.siteContentTranslations?.[locale];
  return { locationsClaim: translation?.locationsClaim || config.locationsClaim };
}

export const DEFAULT_BRAND_NAME = 'Lumen VPN';
/**
 * The support address until the operator sets one: `support@` the site's own host, never a
 * made-up domain (the setup checklist asks for a real one).
 */
export function defaultSupportEmail(publicUrl: URL): string {
  return `support@${publicUrl.hostname}`;
}

/** How many locations the site claims ("50+ Global Locations") until the operator says otherwise. */
export const DEFAULT_LOCATIONS_CLAIM = '50+';

/** Fills `{locations}` in a text with the operator's claim, e.g. "servers in {locations} locations". */
export function withLocations(text: string, locationsClaim: string): string {
  return text.replaceAll('{locations}', locationsClaim);
}

export const HealthResponseSchema = z.object({ ok: z.boolean(), db: z.boolean(), version: z.string() });
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
