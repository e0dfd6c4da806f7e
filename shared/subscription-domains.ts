import { z } from 'zod';

/**
 * Spare public domains for subscription links (`PUT /api/admin/settings` `subscriptionDomains`): `/sub/<token>`
 * answers on each; links are issued on the first one not marked blocked (PUBLIC_URL's when there is none).
 * In Russia a domain serving VPN configurations is blocked within days: marking it blocked moves every customer.
 */
export interface SubscriptionDomain {
  /** A host name, with a port when it is not the scheme's: `sub1.example.com`. */
  domain: string;
  blocked: boolean;
}

export const SUBSCRIPTION_DOMAINS_MAX = 20;

const HOST = /^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/;

export const SubscriptionDomainsSchema = z
  .array(
    z
      .object(
        {
          domain: z
            .string({ error: 'A domain is text, e.g. sub1.example.com' })
            .trim()
            .toLowerCase()
            .refine((value) => !value.includes('://') && !value.includes('/'), 'Just the domain, without https:// or a path, e.g. sub1.example.com')
            .refine((value) => HOST.test(value), 'Not a domain name, e.g. sub1.example.com'),
          blocked: z.boolean({ error: 'Blocked: true or false' }).optional().default(false),
        },
        { error: 'Each domain is { "domain": "sub1.example.com", "blocked": false }' },
      )
      .strict(),
    { error: 'The subscription domains are a list of { domain, blocked }' },
  )
  .max(SUBSCRIPTION_DOMAINS_MAX, `At most ${SUBSCRIPTION_DOMAINS_MAX} subscription domains`)
  .refine((domains) => new Set(domains.map((entry) => entry.domain)).size === domains.length, 'A domain is listed twice');

/** Stored domains read defensively: anything malformed is left out. */
export function subscriptionDomainsFrom(stored: unknown): SubscriptionDomain[] {
  const parsed = SubscriptionDomainsSchema.safeParse(stored ?? []);
  return parsed.success ? parsed.data : [];
}

/** The host links are issued on: the first domain not blocked, else PUBLIC_URL's. */
export function activeSubscriptionHost(domains: readonly SubscriptionDomain[], publicUrl: URL): string {
  return domains.find((entry) => !entry.blocked)?.domain ?? publicUrl.host;
}

/** `<scheme>://<host>`: every subscription domain is served with PUBLIC_URL's scheme. */
export const originOf = (host: string, publicUrl: URL) => `${publicUrl.protocol}//${host}`;
