import { createPanelDriver } from './index.js';
import type { PanelConnection, PanelDriver, PanelKind } from './panel-driver.js';

export type DriverFactory = (kind: PanelKind, connection: PanelConnection) => PanelDriver;

/**
 * One driver per saved server version, so its admin token is cached across requests (and a changed
 * server, which gets a new updatedAt, gets a fresh driver and a fresh login).
 */
export function createDriverRegistry(factory: DriverFactory = (kind, connection) => createPanelDriver(kind, connection)) {
  const drivers = new Map<string, PanelDriver>();
  return {
    /** A driver for connection details that are not saved (the credential test). */
    create: factory,

    forServer(server: { id: string; kind: PanelKind; updatedAt: Date }, connection: () => PanelConnection): PanelDriver {
      const key = `${server.id}:${server.updatedAt.getTime()}`;
      let driver = drivers.get(key);
      if (!driver) {
        for (const existing of drivers.keys()) if (existing.startsWith(`${server.id}:`)) drivers.delete(existing);
        driver = factory(server.kind, connection());
        drivers.set(key, driver);
      }
      return driver;
    },
  };
}

export type DriverRegistry = ReturnType<typeof createDriverRegistry>;
