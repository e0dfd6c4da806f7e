import { useEffect, useState, type ReactNode } from 'react';
import type { PublicConfig } from '../../../../shared/config.js';
import { api } from '../../api';
import { ConfigContext, DEFAULT_PUBLIC_CONFIG } from './config-context';

/**
 * Loads the public settings (brand name, support e-mail…) once. A failure keeps the defaults
 * silently: the session start-up already tells the user when the server is unreachable.
 */
export function ConfigProvider({ children }: { children: ReactNode }) {
  const [config, setConfig] = useState<PublicConfig>(DEFAULT_PUBLIC_CONFIG);

  useEffect(() => {
    let active = true;
    api
      .getConfig()
      .then((loaded) => {
        if (active) setConfig({ ...DEFAULT_PUBLIC_CONFIG, ...loaded });
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, []);

  return <ConfigContext value={config}>{children}</ConfigContext>;
}
