import { createMarzbanDriver } from './marzban.js';
import { createMarzneshinDriver } from './marzneshin.js';
import type { PanelConnection, PanelDriver, PanelKind } from './panel-driver.js';
import { createPasarguardDriver } from './pasarguard.js';
import { createRemnawaveDriver } from './remnawave.js';

export * from './panel-driver.js';

const FACTORIES: Record<PanelKind, typeof createMarzneshinDriver> = {
  marzneshin: createMarzneshinDriver,
  marzban: createMarzbanDriver,
  remnawave: createRemnawaveDriver,
  pasarguard: createPasarguardDriver,
};

export function createPanelDriver(kind: PanelKind, connection: PanelConnection, options: { timeoutMs?: number; now?: () => Date } = {}): PanelDriver {
  return FACTORIES[kind](connection, options);
}
