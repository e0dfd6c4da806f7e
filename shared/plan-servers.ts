import { z } from 'zod';

/**
 * Locations per plan (issue 55): a plan may list the servers its accounts may use, each with the squads (Remnawave),
 * groups (PasarGuard), services (Marzneshin) or inbounds (Marzban) its accounts get there. A server marked premium
 * serves only the plans that list it; a plan that lists none uses every other server that covers its location codes,
 * with the server's own service.
 */
export interface PlanServer {
  serverId: string;
  /** Comma-separated squad UUIDs, group ids, service ids or inbound tags; null: the server's own. */
  serviceId: string | null;
}

/** The most servers one plan can list. */
export const PLAN_SERVERS_MAX = 50;

export const PlanServersSchema = z
  .array(
    z
      .object(
        {
          serverId: z.string({ error: 'Pick a server' }).trim().min(1, 'Pick a server').max(64),
          serviceId: z
            .string({ error: 'Squads or groups are text' })
            .trim()
            .max(400, 'Squads or groups: at most 400 characters')
            .nullable()
            .default(null)
            .transform((value) => (value ? value : null)),
        },
        { error: 'A server of the plan is { serverId, serviceId }' },
      )
      .strict(),
    { error: 'Servers are a list' },
  )
  .max(PLAN_SERVERS_MAX, `At most ${PLAN_SERVERS_MAX} servers`)
  .superRefine((servers, ctx) => {
    const seen = new Set<string>();
    servers.forEach((server, index) => {
      if (seen.has(server.serverId)) ctx.addIssue({ code: 'custom', path: [index, 'serverId'], message: 'This server is listed twice' });
      seen.add(server.serverId);
    });
  });

/** What decides where a plan's accounts may be. */
export interface PlanPlacement {
  locations: string;
  servers: PlanServer[];
}

/** What of a server decides whether a plan may use it. */
export interface ServerPlacement {
  id: string;
  locations: string;
  premium: boolean;
}

/** Whether a server's location codes cover a plan's: 'all' on either side, or every plan code on the server. */
export function serverCovers(serverLocations: string, planLocations: string): boolean {
  if (serverLocations === 'all' || planLocations === 'all' || planLocations === '') return true;
  const offered = new Set(serverLocations.split(','));
  return planLocations.split(',').every((code) => offered.has(code));
}

/** Whether accounts of the plan may be on the server: one it lists, or (listing none) one that covers it and is not premium. */
export function planAllowsServer(plan: PlanPlacement, server: ServerPlacement): boolean {
  if (plan.servers.length > 0) return plan.servers.some((listed) => listed.serverId === server.id);
  return !server.premium && serverCovers(server.locations, plan.locations);
}

/** The squads, groups, services or inbounds an account of the plan gets on the server: the plan's for it, else the server's own. */
export function planServiceOn(plan: Pick<PlanPlacement, 'servers'>, server: { id: string; serviceId: string }): string {
  return plan.servers.find((listed) => listed.serverId === server.id)?.serviceId ?? server.serviceId;
}

/**
 * The location codes a visitor is told a plan has (e.g. ["DE", "NL"]): those of the servers it lists, else its own;
 * empty when it is everywhere ('all').
 */
export function planLocationCodes(plan: PlanPlacement, servers: Array<{ id: string; locations: string }>): string[] {
  const codesOf = (locations: string) => (locations === 'all' || locations === '' ? [] : locations.split(','));
  if (plan.servers.length === 0) return codesOf(plan.locations);
  const listed = servers.filter((server) => plan.servers.some((entry) => entry.serverId === server.id));
  if (listed.some((server) => server.locations === 'all')) return [];
  return [...new Set(listed.flatMap((server) => codesOf(server.locations)))].sort();
}

/** A location code in the reader's language where it is a country ("DE" → "Германия"), else the code itself. */
export function locationName(code: string, locale: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return code;
  try {
    return new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code;
  }
}
