import type { PublicConfig } from '../../../../shared/config.js';

/** The element in which the server embeds the public settings, so the first render already has them. */
export const EMBEDDED_CONFIG_ID = 'app-config';

export function readEmbeddedConfig(): PublicConfig | undefined {
  const text = document.getElementById(EMBEDDED_CONFIG_ID)?.textContent?.trim();
  if (!text?.startsWith('{')) return undefined;
  try {
    return JSON.parse(text) as PublicConfig;
  } catch {
    return undefined;
  }
}
