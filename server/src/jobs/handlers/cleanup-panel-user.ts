import { z } from 'zod';
import type { ServersService } from '../../modules/servers/servers.service.js';
import { PermanentJobError, type JobHandler } from '../worker.js';

export const CLEANUP_PANEL_USER = 'cleanup_panel_user';

const Payload = z.object({ serverId: z.string(), username: z.string(), marker: z.string() });
export type CleanupPanelUserPayload = z.infer<typeof Payload>;

/**
 * After a create the panel may have carried out after we gave up on it (a timeout, a 5xx), the
 * user is deleted again, but only if it carries our marker: it is ours and no account row uses it.
 * A panel that does not answer makes the job fail and retry later.
 */
export function createCleanupPanelUserHandler(deps: { servers: ServersService }): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad cleanup payload');
    const { serverId, username, marker } = parsed.data;
    const server = await deps.servers.findServerRecord(serverId);
    if (!server) return;
    const driver = deps.servers.driverFor(server);
    const account = await driver.getAccount(username);
    if (account && account.note === marker) await driver.deleteAccount(username);
  };
}
