import { z } from 'zod';
import { RegionNameTranslationsSchema, type RegionNameTranslations } from './region-names.js';

export const PANEL_KINDS = ['marzneshin', 'marzban', 'remnawave', 'pasarguard'] as const;
export type PanelKindName = (typeof PANEL_KINDS)[number];
/** Panels reached with an API token made in the panel (`apiToken`) instead of an admin's username and password. */
export const TOKEN_PANEL_KINDS: readonly PanelKindName[] = ['remnawave'];
export const usesApiToken = (kind: PanelKindName): boolean => TOKEN_PANEL_KINDS.includes(kind);
export const SERVER_STATUSES = ['active', 'disabled'] as const;
export type ServerStatus = (typeof SERVER_STATUSES)[number];
/** What the minute-by-minute checks say of a server: 'unknown' until its first check. */
export type HealthState = 'unknown' | 'up' | 'down';
/** A server goes DOWN after this many failed checks in a row, and is UP again after one that answers. */
export const HEALTH_FAILURES_TO_DOWN = 2;

/** Messages from the spec's catalogue. */
export const SERVER_MESSAGES = {
  testFailed: 'Connection test failed. Please check the credentials.',
  activateFailed: 'Connection test failed. Cannot activate server.',
} as const;

/** 'all', or comma-separated location codes such as "DE,NL" (stored upper-case, no spaces). */
export const LocationsSchema = z
  .string()
  .trim()
  .max(500)
  .transform((value) =>
    value === '' || value.toLowerCase() === 'all'
      ? 'all'
      : value
          .split(',')
          .map((code) => code.trim().toUpperCase())
          .filter(Boolean)
          .join(','),
  )
  .pipe(z.string().regex(/^(all|[A-Z0-9-]{2,10}(,[A-Z0-9-]{2,10})*)$/, "Use 'all' or comma-separated location codes such as DE,NL"));

const PanelUrl = z
  .string()
  .trim()
  .max(500)
  .pipe(z.url({ protocol: /^https?$/, error: 'Enter the panel URL, e.g. https://panel.example.com:8443' }))
  .transform((url) => url.replace(/\/+$/, ''));

/** Room for a few comma-separated squad UUIDs. */
const SERVICE_ID_MAX = 400;

const Required = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max);

const Password = z.string({ error: 'Password is required' }).min(1, 'Password is required').max(500);
const ApiToken = z.string({ error: 'API token is required' }).trim().min(1, 'API token is required').max(4000);

/**
 * A panel's address and credentials: an admin's `username` and `password`, or (Remnawave) an `apiToken`.
 * Which of them a kind needs is checked by `requireCredentials`, once the kind is known.
 */
const ConnectionFields = {
  url: PanelUrl,
  username: z.string().trim().max(200).optional(),
  password: Password.optional(),
  apiToken: ApiToken.optional(),
};

type Credentials = { kind?: PanelKindName; username?: string; password?: string; apiToken?: string };

/** The credentials each kind needs, as field errors: a token for token panels, a username and password for the others. */
export function missingCredentials(value: Credentials): Record<string, string> {
  const missing: Record<string, string> = {};
  if (usesApiToken(value.kind ?? 'marzneshin')) {
    if (!value.apiToken) missing.apiToken = 'API token is required';
  } else {
    if (!value.username) missing.username = 'Username is required';
    if (!value.password) missing.password = 'Password is required';
  }
  return missing;
}

function requireCredentials(value: Credentials, ctx: z.RefinementCtx): void {
  for (const [field, message] of Object.entries(missingCredentials(value))) ctx.addIssue({ code: 'custom', path: [field], message });
}

/** A server's fields without defaults: what PATCH may change (a default would overwrite the saved value). */
const ServerFields = z.object({
  kind: z.enum(PANEL_KINDS),
  ...ConnectionFields,
  name: Required('Name', 120),
  /** Shown on the public status page instead of the internal name; empty: "Location N". */
  publicName: z
    .string()
    .trim()
    .max(60, 'Public region name: at most 60 characters')
    .nullable()
    .transform((value) => value || null),
  /** The public region name in the customers' other languages (shared/region-names.ts); replaced whole when sent. */
  publicNameTranslations: RegionNameTranslationsSchema,
  /** Marzneshin: a service id; Marzban: an inbound tag or 'all'; Remnawave: internal squad UUIDs; PasarGuard: group ids (several comma-separated). */
  serviceId: Required('Service ID', SERVICE_ID_MAX),
  locations: LocationsSchema,
  /** Premium: only the plans that list it (shared/plan-servers.ts) may put accounts on it. */
  premium: z.boolean({ error: 'Premium is true or false' }),
  /** A token panel: when its API token ends (`2027-03-01` or an ISO time; null: not given). Warned 14 and 3 days before. */
  apiTokenExpiresAt: z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'The token’s end is a date, e.g. 2027-03-01' })
    .transform((value) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value).toISOString())
    .nullable(),
});

/** `POST /api/admin/servers/test`: with a `serviceId`, the test also checks that this panel admin may assign it. */
export const ServerConnectionBody = z
  .object({
    kind: z.enum(PANEL_KINDS).default('marzneshin'),
    ...ConnectionFields,
    serviceId: z.string().trim().max(SERVICE_ID_MAX).optional(),
  })
  .superRefine(requireCredentials);
export type ServerConnectionBody = z.infer<typeof ServerConnectionBody>;

export const CreateServerBody = ServerFields.extend({
  kind: ServerFields.shape.kind.default('marzneshin'),
  publicName: ServerFields.shape.publicName.optional(),
  publicNameTranslations: ServerFields.shape.publicNameTranslations.optional(),
  apiTokenExpiresAt: ServerFields.shape.apiTokenExpiresAt.optional(),
  locations: LocationsSchema.default('all'),
  premium: ServerFields.shape.premium.default(false),
}).superRefine(requireCredentials);
export type CreateServerBody = z.infer<typeof CreateServerBody>;

/** Every field optional, none defaulted; `password` / `apiToken` only when it changes (neither is ever sent back). */
export const UpdateServerBody = ServerFields.partial().strict();
export type UpdateServerBody = z.infer<typeof UpdateServerBody>;

/** A master server as the admin panel sees it: never the password, the API token or the panel's session token. */
export interface AdminServer {
  id: string;
  kind: PanelKindName;
  name: string;
  /** The region name the public status page shows; null: "Location N". */
  publicName: string | null;
  /** `publicName` in the customers' other languages. */
  publicNameTranslations: RegionNameTranslations;
  url: string;
  /** The panel admin's username; '' for a kind that uses an API token. */
  username: string;
  serviceId: string;
  locations: string;
  /** Only the plans that list it may use it. */
  premium: boolean;
  status: ServerStatus;
  lastCheck: string | null;
  /** When its API token ends (a token panel); null: not given. */
  apiTokenExpiresAt: string | null;
  health: AdminServerHealth;
  createdAt: string;
  updatedAt: string;
}

/** The health checks' latest findings, for the admin's server list. */
export interface AdminServerHealth {
  state: HealthState;
  latencyMs: number | null;
  /** Why the last check failed (the panel driver's message); null after a check that answered. */
  lastError: string | null;
  checkedAt: string | null;
  /** Since when the server has been in `state`. */
  since: string | null;
}
