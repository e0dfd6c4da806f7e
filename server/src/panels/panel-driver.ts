import type { PanelKindName } from '../../../shared/servers.js';

export { PANEL_KINDS } from '../../../shared/servers.js';

/** What the rest of the server sees of a panel (spec/panels.md, "Driver interface"). */
export type AccountStatus = 'active' | 'disabled' | 'limited' | 'expired' | 'on_hold';
export type PanelKind = PanelKindName;

export interface PanelAccount {
  username: string;
  status: AccountStatus;
  usedTrafficBytes: number;
  /** null = unlimited. */
  dataLimitBytes: number | null;
  /** null = never. */
  expiresAt: Date | null;
  /** Absolute. */
  subscriptionUrl: string;
  /** Configuration links; null when not asked for. */
  links: string[] | null;
  /** The note stored with the user: our marker (the vpn_accounts id) when we created it. */
  note: string | null;
}

/** The four formats `/sub` asks a panel for (base64 links, sing-box JSON, Clash Meta and Clash YAML). */
export type PanelSubscriptionFormat = 'v2ray' | 'sing-box' | 'clash-meta' | 'clash';

export interface PanelService {
  id: string;
  name: string;
}

export interface NewPanelAccount {
  username: string;
  dataLimitBytes: number | null;
  expiresAt: Date | null;
  /** Our marker (the vpn_accounts id): lets a retry recognise an account it created itself. */
  note: string;
  /**
   * The services to put the new user in, in the connection's `serviceId` format (a plan's own locations);
   * checked as the connection's would be. Left out: the connection's `serviceId`.
   */
  serviceId?: string;
}

export interface PanelDriver {
  readonly kind: PanelKind;
  /**
   * Throws PanelError('auth' | 'unreachable' | …) unless the credentials work, and
   * PanelError('not_permitted') when this admin could not provision on the connection's service.
   */
  testConnection(): Promise<void>;
  listServices(): Promise<PanelService[]>;
  /** Throws PanelError('conflict') when the username belongs to someone else: pick another. */
  createAccount(input: NewPanelAccount): Promise<PanelAccount>;
  getAccount(username: string, options?: { withLinks?: boolean }): Promise<PanelAccount | null>;
  /**
   * One page of the panel's users (page 1 first; `size` at most 100), in the panel's own order, with
   * the total; `links` are null. The panel sync (modules/panel-sync) reads every user this way.
   */
  listAccounts(page: { page: number; size: number }): Promise<{ accounts: PanelAccount[]; total: number }>;
  extendAccount(username: string, change: { expiresAt?: Date | null; dataLimitBytes?: number | null }): Promise<PanelAccount>;
  /**
   * Puts the user in exactly these services (the connection's serviceId format), replacing the ones it had; its
   * link stays the same. Throws PanelError('rejected') for a service the panel does not have (before changing
   * anything), for none at all, and for a user that is not there.
   */
  setServices(username: string, serviceId: string): Promise<PanelAccount>;
  setEnabled(username: string, enabled: boolean): Promise<PanelAccount>;
  /** Sets the user's used traffic back to 0 (a renewal starts a fresh data allowance). */
  resetUsage(username: string): Promise<PanelAccount>;
  deleteAccount(username: string): Promise<{ alreadyGone: boolean }>;
}

export interface PanelConnection {
  url: string;
  /** The panel admin's login ('' for a kind that uses an API token). */
  username: string;
  password: string;
  /** Remnawave: the API token made in the panel, sent as `Authorization: Bearer`. */
  apiToken?: string;
  /**
   * Marzneshin: service ids; Marzban: inbound tags, or 'all'; Remnawave: internal squad UUIDs; PasarGuard: group
   * ids (several comma-separated; a saved server's form takes one for Marzneshin and Marzban).
   */
  serviceId: string;
}

export type PanelErrorKind =
  | 'auth' // the credentials were refused
  | 'unreachable' // refused, reset, DNS: retryable
  | 'timeout' // no answer in time: retryable, and a write may have happened
  | 'wrong_url' // a 404 of the route itself: not a panel of this kind at this address
  | 'conflict' // the username is taken by an account that is not ours
  | 'rejected' // the panel refused the request (4xx validation, disabled protocol, unknown service)
  | 'not_permitted' // the credential test: this panel admin may not do what we need (e.g. assign the service)
  | 'server_error' // 5xx: retryable, and a write may have happened
  | 'invalid_response'; // not the JSON we expect

export class PanelError extends Error {
  constructor(
    public readonly kind: PanelErrorKind,
    message: string,
    public readonly status?: number,
  ) {
    super(message);
    this.name = 'PanelError';
  }

  /** Worth trying again later (the panel may come back). */
  get retryable(): boolean {
    return this.kind === 'unreachable' || this.kind === 'timeout' || this.kind === 'server_error';
  }
}
