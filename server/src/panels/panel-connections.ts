import { Agent } from 'undici';

/**
 * The connections to the panels, kept open between requests: one pool per panel (undici keeps one per
 * origin), so a `/sub` a client asks for minutes after the last one does not pay a TCP and TLS handshake
 * (behind TLS a cold fetch ran at 0.46 of the panel's own rate with Node's default 4 s keep-alive).
 * A panel that names its own keep-alive (`Keep-Alive: timeout=…`) is believed; idle connections do not
 * keep the process alive.
 */
export const PANEL_KEEP_ALIVE_MS = 60_000;

export const panelConnections = new Agent({
  keepAliveTimeout: PANEL_KEEP_ALIVE_MS,
  keepAliveMaxTimeout: 10 * 60_000,
  // No cap per panel: a burst of first fetches runs at the panel's own pace (a cap of 32 held 100 clients to a
  // third of it); background refreshes are capped where they are made (stored-copy-writes.ts).
});
