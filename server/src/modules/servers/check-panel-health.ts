import { addSeconds, type Clock } from '../../lib/clock.js';
import { HEALTH_CHECKS, type ServerHealth } from './server-health.js';
import type { JobHandler } from '../../jobs/worker.js';

export const CHECK_PANEL_HEALTH = 'check_panel_health';

/** One pass of the panel health checks (modules/servers/server-health.ts), then the next a minute later (sooner after a failure). */
export function createCheckPanelHealthHandler(deps: { health: ServerHealth; clock: Clock }): JobHandler {
  return async () => {
    const pass = await deps.health.checkAll();
    return {
      runAgainAt: addSeconds(deps.clock(), pass.failing > 0 ? HEALTH_CHECKS.recheckSeconds : HEALTH_CHECKS.intervalSeconds),
      note:
        pass.checked === 0
          ? 'no enabled servers'
          : `${pass.checked} checked, ${pass.up} up, ${pass.down} down${pass.changed.length ? `; changed: ${pass.changed.join(', ')}` : ''}`,
    };
  };
}
