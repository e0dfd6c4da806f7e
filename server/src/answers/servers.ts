import { z } from 'zod';
import { PANEL_KINDS, SERVER_STATUSES, type AdminServer, type AdminServerHealth } from '../../../shared/servers.js';
import type { PanelService } from '../panels/panel-driver.js';

/**
 * What the master-server routes answer: a server as the admin panel sees it (never its password, API token or the
 * panel's session token) and the services (or inbounds, squads, groups) its panel offers, each checked against the
 * type the service returns. Times are ISO strings.
 */

/** The health checks' latest findings. */
const ServerHealthAnswer = z.object({
  state: z.enum(['unknown', 'up', 'down']),
  latencyMs: z.number().int().nullable(),
  lastError: z.string().nullable(),
  checkedAt: z.string().nullable(),
  since: z.string().nullable(),
}) satisfies z.ZodType<AdminServerHealth>;

/** A master server (a panel): the list's rows, and the answer of creating, changing, enabling or disabling one. */
export const AdminServerAnswer = z.object({
  id: z.string(),
  kind: z.enum(PANEL_KINDS),
  name: z.string(),
  publicName: z.string().nullable(),
  publicNameTranslations: z.object({ ru: z.string().optional(), fa: z.string().optional(), 'zh-CN': z.string().optional() }),
  url: z.string(),
  username: z.string(),
  serviceId: z.string(),
  locations: z.string(),
  /** Only the plans that list it may put accounts on it. */
  premium: z.boolean(),
  status: z.enum(SERVER_STATUSES),
  lastCheck: z.string().nullable(),
  apiTokenExpiresAt: z.string().nullable(),
  health: ServerHealthAnswer,
  createdAt: z.string(),
  updatedAt: z.string(),
}) satisfies z.ZodType<AdminServer>;

/** `GET /api/admin/servers`. */
export const AdminServerListAnswer = z.array(AdminServerAnswer);

/** A service the panel offers, as its id (what `serviceId` takes) and a name to pick it by. */
export const PanelServiceAnswer = z.object({ id: z.string(), name: z.string() }) satisfies z.ZodType<PanelService>;

/** `GET /api/admin/servers/:id/services`. */
export const PanelServiceListAnswer = z.array(PanelServiceAnswer);

/** `POST /api/admin/servers/test`: the connection works; the panel's services to pick from. */
export const ConnectionTestedAnswer = z.object({ services: PanelServiceListAnswer }) satisfies z.ZodType<{ services: PanelService[] }>;
