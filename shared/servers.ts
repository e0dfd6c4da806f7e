import { z } from 'zod';

export const PANEL_KINDS = ['marzneshin', 'marzban'] as const;
export type PanelKindName = (typeof PANEL_KINDS)[number];
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
  .transform((value) => (value === '' || value.toLowerCase() === 'all' ? 'all' : value.split(',').map((code) => code.trim().toUpperCase()).filter(Boolean).join(',')))
  .pipe(z.string().regex(/^(all|[A-Z0-9-]{2,10}(,[A-Z0-9-]{2,10})*)$/, "Use 'all' or comma-separated location codes such as DE,NL"));

const PanelUrl = z
  .string()
  .trim()
  .max(500)
  .pipe(z.url({ protocol: /^https?$/, error: 'Enter the panel URL, e.g. https://panel.example.com:8443' }))
  .transform((url) => url.replace(/\/+$/, ''));

const Required = (label: string, max = 200) => z.string({ error: `${label} is required` }).trim().min(1, `${label} is required`).max(max);

const ConnectionFields = {
  url: PanelUrl,
  username: Required('Username'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(500),
};

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
  serviceId: Required('Service ID', 64),
  locations: LocationsSchema,
});

/** `POST /api/admin/servers/test`: with a `serviceId`, the test also checks that this panel admin may assign it. */
export const ServerConnectionBody = z.object({
  kind: z.enum(PANEL_KINDS).default('marzneshin'),
  ...ConnectionFields,
  serviceId: z.string().trim().max(64).optional(),
});
export type ServerConnectionBody = z.infer<typeof ServerConnectionBody>;

export const CreateServerBody = ServerFields.extend({
  kind: ServerFields.shape.kind.default('marzneshin'),
  publicName: ServerFields.shape.publicName.optional(),
  locations: LocationsSchema.default('all'),
});
export type CreateServerBody = z.infer<typeof CreateServerBody>;

/** Every field optional, none defaulted; `password` only when it changes (it is never sent back). */
export const UpdateServerBody = ServerFields.partial().strict();
export type UpdateServerBody = z.infer<typeof UpdateServerBody>;

/** A master server as the admin panel sees it: never the password or the panel token. */
export interface AdminServer {
  id: string;
  kind: PanelKindName;
  name: string;
  /** The region name the public status page shows; null: "Location N". */
  publicName: string | null;
  url: string;
  username: string;
  serviceId: string;
  locations: string;
  status: ServerStatus;
  lastCheck: string | null;
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
