import { createMarzbanDriver } from './marzban.js';
import { createMarzneshinDriver } from './marzneshin.js';
import type { PanelConnection, PanelDriver, PanelKind } from './panel-driver.js';

export * from './panel-driver.js';

export function createPanelDriver(kind: PanelKind, connection: PanelConnection, options: { timeoutMs?: number; now?: () => Date } = {}): PanelDriver {
  return kind === 'marzban' ? createMarzbanDriver(connection, options) : createMarzneshinDriver(connection, options);
}
