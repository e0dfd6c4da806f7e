/**
 * The desktop app's one bridge between the renderer (the React screens from web/) and the Electron
 * main process. The preload exposes an object that `satisfies PlatformBridge` as `window.platform`;
 * nothing else crosses. Every argument is validated again in the main process as unknown input.
 *
 * The main process holds the session: the access token in memory, the refresh token in the OS
 * keychain. The renderer never sees either; its API calls go through `request`, which the main
 * process sends to the configured server with the bearer token, refreshing it when needed.
 */

export type BridgeHttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One API call. `path` starts with `/api/`; `body` is JSON. */
export interface BridgeRequest {
  method: BridgeHttpMethod;
  path: string;
  body?: unknown;
}

/**
 * The server's answer as the renderer sees it: status and the JSON text of the body ('' when empty).
 * Special paths, handled by the main process:
 * - `POST /api/auth/verify` is sent with `client: "desktop"`; the tokens are kept in the main process
 *   and the keychain, and the renderer gets `{ user }` only.
 * - `GET /api/auth/session` resumes a session from the keychain when there is no access token yet.
 * - `POST /api/auth/logout` also deletes the keychain entry.
 * A server that does not answer is `{ status: 0, body: '' }`.
 */
export interface BridgeResponse {
  status: number;
  body: string;
}

/** An update of the app itself: downloaded in the background, installed when the user restarts for it (or quits). */
export type AppUpdateStatus = { ready: false } | { ready: true; version: string };

export type SetServerUrlResult = { ok: true; serverUrl: string } | { ok: false; message: string };

export interface PlatformBridge {
  request(call: BridgeRequest): Promise<BridgeResponse>;
  /** The server this app talks to (the build's default until the user changes it). */
  getServerUrl(): Promise<string>;
  /** https, or http for localhost only; changing it signs the user out of the previous server. */
  setServerUrl(url: string): Promise<SetServerUrlResult>;
  /** Ids (from `VPN_CLIENT_APPS` in shared/deep-links.ts) of the VPN clients installed on this machine. */
  detectClients(): Promise<string[]>;
  /** Opens a VPN client's deep link; refused (opened: false) for a scheme that is unknown or has no handler. */
  openDeepLink(link: string): Promise<{ opened: boolean }>;
  /** Opens an https page (the website's dashboard, a download page) in the system browser. */
  openExternal(url: string): Promise<{ opened: boolean }>;
  /** Called when the app window regains focus (e.g. back from buying in the browser). Returns an unsubscribe. */
  onFocus(listener: () => void): () => void;
  /** Whether an update of the app has been downloaded and waits for a restart. */
  getUpdateStatus(): Promise<AppUpdateStatus>;
  /** Called when an update has been downloaded. Returns an unsubscribe. */
  onUpdateReady(listener: (version: string) => void): () => void;
  /** Quits and installs the downloaded update, then starts the app again; nothing happens when none is ready. */
  restartToUpdate(): Promise<{ restarting: boolean }>;
}

/** The IPC channel of each bridge method (the preload and the main process share these names). */
export const BRIDGE_CHANNELS = {
  request: 'platform:request',
  getServerUrl: 'platform:get-server-url',
  setServerUrl: 'platform:set-server-url',
  detectClients: 'platform:detect-clients',
  openDeepLink: 'platform:open-deep-link',
  openExternal: 'platform:open-external',
  focus: 'platform:focus',
  getUpdateStatus: 'platform:get-update-status',
  updateReady: 'platform:update-ready',
  restartToUpdate: 'platform:restart-to-update',
} as const;
