/** The handle every fake panel returns: its address, its state and the switches tests flip. */

import type { MarzbanUser } from './marzban-model.js';
import type { MarzneshinUser } from './marzneshin-model.js';

/**
 * A panel user as the fake stores it. Both fakes return the same handle type, so `users` holds the
 * union: narrow with `asMarzneshinUser` / `asMarzbanUser` (or a cast) to edit panel-specific fields.
 */
export type FakeUser = MarzneshinUser | MarzbanUser;

export interface LoggedRequest {
  method: string;
  /** The request target as sent: path plus query string, still percent-encoded. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface QueuedFailure {
  /** Only requests with this method (any case); every method when left out. */
  method?: string;
  /** Only requests whose raw target (path plus query) starts with this; every path when left out. */
  pathPrefix?: string;
  status: number;
  /** Default: `Internal Server Error` for a 5xx, otherwise `{"detail":"<reason phrase>"}`. */
  body?: string;
  /** Default: `application/json` when the body starts with `{` or `[`, else `text/plain; charset=utf-8`. */
  contentType?: string;
}

export interface PanelFaults {
  /** While true every incoming connection is reset at once (clients see ECONNRESET). */
  down: boolean;
  /** Milliseconds to wait before answering each request. */
  delayMs: number;
  /** One-shot failures: the first entry matching a request is removed and answered instead of the route. */
  failNext: QueuedFailure[];
}

export interface PanelAdmin {
  username: string;
  password: string;
}

export interface FakePanel {
  /** e.g. `http://127.0.0.1:41234`, no trailing slash. */
  url: string;
  /** The admin login; tests may change the password at run time (old tokens stay valid until `revokeAllTokens`). */
  admin: PanelAdmin;
  /** The panel's users by username: inspect and edit freely. */
  users: Map<string, FakeUser>;
  /** Every request received, in order. */
  requests: LoggedRequest[];
  faults: PanelFaults;
  /** Lifetime of tokens issued from now on, in seconds; 0 = tokens without `exp`. Default 86400. */
  tokenTtlSeconds: number;
  /** Every token issued so far becomes invalid (like an admin password reset). */
  revokeAllTokens(): void;
  close(): Promise<void>;
}

export interface FakePanelOptions {
  admin?: Partial<PanelAdmin>;
  /** false: the admin is not a sudo admin (sees only its own users). Default true. */
  sudo?: boolean;
  tokenTtlSeconds?: number;
  /** Prefix of `subscription_url` (e.g. `https://sub.example.test`); default '' = relative URLs. */
  subscriptionUrlPrefix?: string;
  /** Subscription headers; defaults are each panel's own defaults. */
  profileTitle?: string;
  supportUrl?: string;
  updateIntervalHours?: number;
}
