import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { PublicConfig } from '../../../../shared/config.js';
import { siteFlags } from '../../../../shared/site-template.js';
import { api } from '../../api';
import { ConfigContext, ConfigUpdateContext, DEFAULT_PUBLIC_CONFIG } from './config-context';

/**
 * The public settings (brand name, support e-mail…). The server embeds them in every page, so they
 * are there from the first render; only without them (the Vite dev server) are they fetched, and a
 * failure then keeps the defaults: the session start-up already reports an unreachable server.
 */
export function ConfigProvider({ initialConfig, children }: { initialConfig?: PublicConfig; children: ReactNode }) {
  const [config, setConfig] = useState<PublicConfig>(initialConfig ?? DEFAULT_PUBLIC_CONFIG);

  useEffect(() => {
    if (initialConfig) return;
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
  }, [initialConfig]);

  // The server writes the flags into the page; the desktop app and the dev server set them here.
  const flags = siteFlags(config);
  useEffect(() => {
    document.documentElement.dataset.siteFlags = flags;
  }, [flags]);

  const update = useCallback((saved: Partial<PublicConfig>) => setConfig((current) => ({ ...current, ...saved })), []);

  return (
    <ConfigContext value={config}>
      <ConfigUpdateContext value={update}>{children}</ConfigUpdateContext>
    </ConfigContext>
  );
}
