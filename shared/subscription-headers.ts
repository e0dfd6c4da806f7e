import { z } from 'zod';
import { LOCALES, type Locale } from './locales.js';

/**
 * The headers VPN apps act on, as the operator sets them (`PUT /api/admin/settings` `subscriptionHeaders`).
 * `profile-title`, `support-url`, `profile-web-page-url` and `subscription-userinfo` are always sent.
 */
export interface SubscriptionHeaderSettings {
  /** `announce`: a message the app shows above the servers (Happ, v2RayTun), per language; English is the fallback; {} = none. */
  announce: Partial<Record<Locale, string>>;
  /** `routing`: a routing profile the app installs (Happ's `happ://routing/onadd/<base64>`, v2RayTun's); null = none. */
  routing: string | null;
  /** The operator's Happ provider id (8 letters and digits, from happ-proxy.com): turns on Happ's provider headers. */
  happProviderId: string | null;
  /** Happ `hide-settings`: customers cannot see or change the servers' settings (provider id only). */
  hideSettings: boolean;
  /** `profile-update-interval`: how often apps fetch the subscription again, hours. */
  updateIntervalHours: number;
}

export const SUBSCRIPTION_HEADER_DEFAULTS: SubscriptionHeaderSettings = {
  announce: {},
  routing: null,
  happProviderId: null,
  hideSettings: false,
  updateIntervalHours: 12,
};

export const SUBSCRIPTION_HEADER_LIMITS = { announceChars: 200, routingChars: 8000, minHours: 1, maxHours: 168 } as const;

/** A header value: printable text on one line (a header cannot hold a line break). */
const oneLine = (what: string, max: number) =>
  z
    .string({ error: `${what} is text` })
    .trim()
    .max(max, `${what}: at most ${max} characters`)
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), `${what} must be one line of text`);

const AnnounceSchema = z
  .object(Object.fromEntries(LOCALES.map((locale) => [locale, oneLine('The announcement', SUBSCRIPTION_HEADER_LIMITS.announceChars).optional()])), {
    error: 'The announcement is an object of languages, e.g. { "en": "…", "ru": "…" }',
  })
  .strict()
  .transform(
    (texts) => Object.fromEntries(Object.entries(texts).filter(([, text]) => typeof text === 'string' && text !== '')) as Partial<Record<Locale, string>>,
  );

export const SubscriptionHeaderSettingsSchema = z
  .object({
    announce: AnnounceSchema,
    routing: oneLine('The routing profile', SUBSCRIPTION_HEADER_LIMITS.routingChars)
      .refine((value) => value === '' || /^\S+$/.test(value), 'The routing profile is one link (happ://routing/onadd/…) or base64 text, without spaces')
      .transform((value) => value || null)
      .nullable(),
    happProviderId: z
      .string({ error: 'The Happ provider id is text' })
      .trim()
      .refine((value) => value === '' || /^[A-Za-z0-9]{8}$/.test(value), 'The Happ provider id is 8 letters and digits (happ-proxy.com, your profile)')
      .transform((value) => value || null)
      .nullable(),
    hideSettings: z.boolean({ error: 'Hide settings: true or false' }),
    updateIntervalHours: z
      .number({ error: 'The update interval is a number of hours' })
      .int('The update interval is a whole number of hours')
      .min(SUBSCRIPTION_HEADER_LIMITS.minHours, `The update interval: at least ${SUBSCRIPTION_HEADER_LIMITS.minHours} hour`)
      .max(SUBSCRIPTION_HEADER_LIMITS.maxHours, `The update interval: at most ${SUBSCRIPTION_HEADER_LIMITS.maxHours} hours`),
  })
  .partial()
  .strict();

/** Stored settings read defensively: anything missing or malformed is its default. */
export function subscriptionHeadersFrom(stored: unknown): SubscriptionHeaderSettings {
  const parsed = SubscriptionHeaderSettingsSchema.safeParse(stored ?? {});
  return { ...SUBSCRIPTION_HEADER_DEFAULTS, ...(parsed.success ? parsed.data : {}) };
}
