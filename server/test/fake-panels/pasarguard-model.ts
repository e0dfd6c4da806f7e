import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { ProxyServer } from './subscription.js';
import { BodyCheck, parseDateTime, type Json } from './validate.js';

/** PasarGuard v5.2.1's user, group and role models as the fake keeps them (read from app/models, app/db/models.py). */

export const USER_STATUSES = ['active', 'disabled', 'limited', 'expired', 'on_hold'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
const RESET_STRATEGIES = ['no_reset', 'day', 'week', 'month', 'year'] as const;
type ResetStrategy = (typeof RESET_STRATEGIES)[number];
export type Protocol = 'vless' | 'vmess' | 'trojan' | 'shadowsocks';

export interface PasarguardUser {
  id: number;
  /** Case kept (CaseSensitiveString(128), unique). */
  username: string;
  proxy_settings: {
    vmess: { id: string };
    vless: { id: string };
    trojan: { password: string };
    shadowsocks: { password: string; method: string };
    wireguard: { private_key: string | null; public_key: string | null; peer_ips: string[] };
    hysteria: { auth: string };
  };
  /** Stored tz-aware; null = never. */
  expire: Date | null;
  /** Bytes; 0 and null both mean unlimited (a create keeps 0, a modify stores null). */
  data_limit: number | null;
  data_limit_reset_strategy: ResetStrategy;
  status: UserStatus;
  used_traffic: number;
  /** Traffic of earlier resets (lifetime_used_traffic = this + used_traffic). */
  reseted_usage: number;
  note: string | null;
  on_hold_expire_duration: number | null;
  on_hold_timeout: Date | null;
  group_ids: number[];
  auto_delete_in_days: number | null;
  /** null = the panel's fallback limit; 0 = HWID checks off for this user. */
  hwid_limit: number | null;
  next_plan: Json | null;
  created_at: Date;
  edit_at: Date | null;
  online_at: Date | null;
  sub_revoked_at: Date | null;
  admin: { id: number; username: string };
  /** Device ids seen in `x-hwid` headers. */
  hwids: string[];
}

export interface PasarguardGroup {
  id: number;
  name: string;
  inbound_tags: string[];
  is_disabled: boolean;
}

export interface PasarguardInbound {
  tag: string;
  protocol: Protocol;
  network: 'tcp' | 'ws';
  tls: boolean;
  port: number;
  path?: string;
}

/** A host: how one inbound appears in subscriptions. `status` empty = shown to users of every status. */
export interface PasarguardHost {
  inbound_tag: string;
  remark: string;
  address: string;
  status: UserStatus[];
}

export const DEFAULT_INBOUNDS: PasarguardInbound[] = [
  { tag: 'VLESS TCP REALITY', protocol: 'vless', network: 'tcp', tls: true, port: 443 },
  { tag: 'VMess WS', protocol: 'vmess', network: 'ws', tls: true, port: 443, path: '/vmess' },
  { tag: 'Trojan TCP', protocol: 'trojan', network: 'tcp', tls: true, port: 8443 },
  { tag: 'Shadowsocks TCP', protocol: 'shadowsocks', network: 'tcp', tls: false, port: 1080 },
];

export const DEFAULT_HOSTS: PasarguardHost[] = [
  { inbound_tag: 'VLESS TCP REALITY', remark: 'NL {PROTOCOL} ({USERNAME})', address: 'nl1.example.test', status: [] },
  { inbound_tag: 'VMess WS', remark: 'NL {PROTOCOL} {TRANSPORT} ({USERNAME})', address: 'nl1.example.test', status: [] },
  { inbound_tag: 'Trojan TCP', remark: 'DE {PROTOCOL} ({USERNAME})', address: 'de1.example.test', status: [] },
  { inbound_tag: 'Shadowsocks TCP', remark: 'DE {PROTOCOL} ({USERNAME})', address: 'de1.example.test', status: [] },
];

export const DEFAULT_GROUPS: PasarguardGroup[] = [
  { id: 1, name: 'Netherlands', inbound_tags: ['VLESS TCP REALITY', 'VMess WS'], is_disabled: false },
  { id: 2, name: 'Germany', inbound_tags: ['Trojan TCP', 'Shadowsocks TCP'], is_disabled: false },
  { id: 3, name: 'Archive', inbound_tags: ['VLESS TCP REALITY'], is_disabled: true },
];

// ---- roles (app/models/admin_role.py; the seeded roles of migration 66c38b8a687a) ----

export type PermissionValue = boolean | { scope: 0 | 1 | 2 } | null;

export interface HwidPolicy {
  enabled: boolean;
  forced: boolean;
  require_hwid_for_manual_sub: boolean;
  fallback_limit: number | null;
  min_limit: number | null;
  max_limit: number | null;
}

export interface RoleLimits {
  max_users: number | null;
  min_hwid_per_user: number | null;
  max_hwid_per_user: number | null;
}

export interface PasarguardRole {
  id: number;
  name: string;
  is_owner: boolean;
  permissions: Record<string, Record<string, PermissionValue>>;
  limits: RoleLimits;
  features: { can_use_reset_strategy: boolean; can_use_next_plan: boolean };
  access: { require_template: boolean; allowed_template_ids: number[] | null; allowed_group_ids: number[] | null };
  hwid: HwidPolicy & { mode: 'disabled' | 'use_global' | 'override' };
  disabled_when_limited: boolean;
}

export const DEFAULT_HWID: HwidPolicy = {
  enabled: true,
  forced: false,
  require_hwid_for_manual_sub: false,
  fallback_limit: null,
  min_limit: null,
  max_limit: null,
};

const ALL = { scope: 2 } as const;
const OWN = { scope: 1 } as const;
const USERS_ALL = {
  create: true,
  read: ALL,
  read_simple: ALL,
  update: ALL,
  delete: ALL,
  reset_usage: ALL,
  revoke_sub: ALL,
  set_owner: true,
  activate_next_plan: ALL,
};
const CRUD = { create: true, read: true, read_simple: true, update: true, delete: true };

function role(id: number, name: string, isOwner: boolean, permissions: PasarguardRole['permissions']): PasarguardRole {
  return {
    id,
    name,
    is_owner: isOwner,
    permissions,
    limits: { max_users: null, min_hwid_per_user: null, max_hwid_per_user: null },
    features: { can_use_reset_strategy: true, can_use_next_plan: true },
    access: { require_template: false, allowed_template_ids: null, allowed_group_ids: null },
    hwid: { mode: 'use_global', ...DEFAULT_HWID },
    disabled_when_limited: false,
  };
}

/** Fresh copies of the three seeded roles. */
export function seededRole(name: 'owner' | 'administrator' | 'operator'): PasarguardRole {
  if (name === 'owner') return role(1, 'owner', true, { users: USERS_ALL, groups: CRUD });
  if (name === 'administrator') return role(2, 'administrator', false, { users: USERS_ALL, groups: CRUD });
  return role(3, 'operator', false, {
    users: { create: true, read: OWN, read_simple: OWN, update: OWN, delete: OWN, reset_usage: OWN, revoke_sub: OWN, set_owner: null, activate_next_plan: OWN },
    groups: { create: false, read: false, read_simple: true, update: false, delete: false },
  });
}

const READ_ACTIONS = new Set(['read', 'read_simple', 'read_general', 'logs', 'stats']);

/** enforce_permission: the 403 detail, or null when allowed. */
export function permissionDenied(admin: { status: string; role: PasarguardRole }, resource: string, action: string): string | null {
  if (admin.role.is_owner) return null;
  if (admin.status === 'limited') {
    if (admin.role.disabled_when_limited) return 'Admin is limited — all access blocked';
    if (!READ_ACTIONS.has(action)) return 'Admin is limited — write actions blocked';
  }
  const value = admin.role.permissions[resource]?.[action];
  if (!value || (typeof value === 'object' && value.scope === 0)) return `Permission denied: ${resource}.${action}`;
  return null;
}

/** get_scope_admin_id: an "own"-scoped action sees only the admin's own users. */
export function ownScope(role: PasarguardRole, resource: string, action: string): boolean {
  const value = role.permissions[resource]?.[action];
  return !role.is_owner && typeof value === 'object' && value !== null && value.scope === 1;
}

/** resolve_effective_hwid_settings: a role may switch HWID off, use the global policy, or override it. */
export function effectiveHwid(global: HwidPolicy, roleHwid: PasarguardRole['hwid']): HwidPolicy | null {
  if (roleHwid.mode === 'disabled') return null;
  if (roleHwid.mode === 'use_global') return global;
  return {
    enabled: true,
    forced: roleHwid.forced,
    require_hwid_for_manual_sub: global.require_hwid_for_manual_sub,
    fallback_limit: roleHwid.fallback_limit ?? global.fallback_limit,
    min_limit: roleHwid.min_limit ?? global.min_limit,
    max_limit: roleHwid.max_limit ?? global.max_limit,
  };
}

// ---- validation (UserCreate / UserModify; 422 detail keyed by the last part of each error's loc) ----

const USERNAME_CHARS = /^[a-zA-Z0-9\-_@.]+$/;

/** UserValidator.validate_username. */
function usernameError(username: string): string | null {
  if (username.length < 3 || username.length > 128) return 'Value error, Username only can be 3 to 128 characters.';
  if (!USERNAME_CHARS.test(username)) return 'Value error, Username can only contain alphanumeric characters, -, _, @, and .';
  if (/[-_@.]{2,}/.test(username)) return 'Value error, Username cannot have consecutive special characters';
  return null;
}

export interface UserFields {
  username?: string;
  expire?: Date | 0 | null;
  data_limit?: number | null;
  data_limit_reset_strategy?: ResetStrategy | null;
  note?: string | null;
  status?: UserStatus | null;
  on_hold_expire_duration?: number | null;
  on_hold_timeout?: Date | null;
  group_ids?: number[] | null;
  auto_delete_in_days?: number | null;
  hwid_limit?: number | null;
  /** Whether the body named `hwid_limit` (an explicit null clears it on modify). */
  hwidLimitSent: boolean;
  next_plan?: Json | null;
}

/** `dt | int | None`: unix seconds or an ISO datetime; a value that is neither fails both union members. */
function readDateOrInt(check: BodyCheck, key: string): Date | 0 | null | undefined {
  if (!check.has(key) || check.body[key] === null) return check.has(key) ? null : undefined;
  const raw = check.body[key];
  if (raw === 0) return 0;
  const date = typeof raw === 'number' || typeof raw === 'string' ? parseDateTime(raw) : null;
  if (date) return date;
  check.fail('datetime', 'Input should be a valid datetime or date, invalid character in year');
  check.fail('int', 'Input should be a valid integer, unable to parse string as an integer');
  return undefined;
}

const STATUS_SETS: Record<'create' | 'modify', readonly UserStatus[]> = {
  create: ['active', 'on_hold'],
  modify: ['active', 'on_hold', 'disabled'],
};

export function checkUserBody(check: BodyCheck, mode: 'create' | 'modify'): UserFields {
  const fields: UserFields = { hwidLimitSent: check.has('hwid_limit') };
  if (check.has('proxy_settings') && check.body.proxy_settings !== null) check.object('proxy_settings');
  fields.expire = readDateOrInt(check, 'expire');
  fields.data_limit = check.int('data_limit', { ge: 0 });
  fields.data_limit_reset_strategy = check.enumOf('data_limit_reset_strategy', RESET_STRATEGIES);
  fields.note = check.str('note', { maxLength: 500 });
  const duration = check.int('on_hold_expire_duration', { ge: 0 });
  fields.on_hold_expire_duration = duration === undefined ? undefined : duration || null;
  const timeout = readDateOrInt(check, 'on_hold_timeout');
  fields.on_hold_timeout = timeout === 0 ? null : timeout;
  fields.group_ids = check.intList('group_ids');
  if (mode === 'create' && check.has('group_ids') && !fields.group_ids?.length) check.fail('group_ids', 'Value error, you must select at least one group');
  fields.auto_delete_in_days = check.int('auto_delete_in_days');
  fields.hwid_limit = check.int('hwid_limit');
  fields.next_plan = check.object('next_plan');
  if (mode === 'create') {
    const username = check.str('username', { required: true, nullable: false });
    const problem = typeof username === 'string' ? usernameError(username) : null;
    if (problem) check.fail('username', problem);
    else if (username) fields.username = username;
  }
  if (check.has('status') && check.body.status !== null) {
    const allowed = STATUS_SETS[mode];
    const status = check.body.status as UserStatus;
    if (!allowed.includes(status)) {
      check.fail('status', `Value error, ('status must be in', {${allowed.map((s) => `<UserStatus.${s}: '${s}'>`).join(', ')}})`);
    } else if (status === 'on_hold' && !fields.on_hold_expire_duration) {
      check.fail('status', 'Value error, User cannot be on hold without a valid on_hold_expire_duration.');
    } else if (status === 'on_hold' && fields.expire) {
      check.fail('status', 'Value error, User cannot be on hold with specified expire.');
    } else {
      fields.status = status;
    }
  }
  return fields;
}

export function newProxySettings(): PasarguardUser['proxy_settings'] {
  return {
    vmess: { id: randomUUID() },
    vless: { id: randomUUID() },
    trojan: { password: randomBytes(18).toString('base64url') },
    shadowsocks: { password: randomBytes(18).toString('base64url'), method: 'chacha20-ietf-poly1305' },
    wireguard: { private_key: null, public_key: null, peer_ips: [] },
    hysteria: { auth: randomBytes(18).toString('base64url') },
  };
}

// ---- status ----

const isExpired = (user: PasarguardUser, now: number) => user.expire !== null && user.expire.getTime() <= now;
const isLimited = (user: PasarguardUser) => !!user.data_limit && user.data_limit > 0 && user.used_traffic >= user.data_limit;

/** _resolve_enabled_user_status: what enabling a disabled user makes of it. */
export function enabledStatus(user: PasarguardUser, now = Date.now()): UserStatus {
  if (isExpired(user, now)) return 'expired';
  if (isLimited(user)) return 'limited';
  if (user.on_hold_expire_duration !== null) return 'on_hold';
  return 'active';
}

/** What the panel's review jobs do by the next read: active → expired / limited; on hold → active once its timeout passed. */
export function reviewUser(user: PasarguardUser, now = Date.now()): void {
  if (user.status === 'active') {
    if (isExpired(user, now)) user.status = 'expired';
    else if (isLimited(user)) user.status = 'limited';
  } else if (user.status === 'on_hold' && user.on_hold_timeout && user.on_hold_timeout.getTime() <= now) {
    user.status = 'active';
    user.expire = new Date(now + (user.on_hold_expire_duration ?? 0) * 1000);
    user.on_hold_expire_duration = null;
    user.on_hold_timeout = null;
  }
}

// ---- output ----

/** Pydantic's JSON for a tz-aware UTC datetime: `Z`, microseconds only when non-zero. */
export function awareUtc(date: Date | null): string | null {
  if (!date) return null;
  const ms = date.getUTCMilliseconds();
  return `${date.toISOString().slice(0, 19)}${ms ? `.${String(ms).padStart(3, '0')}000` : ''}Z`;
}

/** UserResponse, field for field. */
export function serializeUser(user: PasarguardUser, subscriptionUrl: string): Record<string, unknown> {
  return {
    proxy_settings: structuredClone(user.proxy_settings),
    expire: awareUtc(user.expire),
    data_limit: user.data_limit,
    data_limit_reset_strategy: user.data_limit_reset_strategy,
    note: user.note,
    on_hold_expire_duration: user.on_hold_expire_duration,
    on_hold_timeout: awareUtc(user.on_hold_timeout),
    group_ids: [...user.group_ids],
    auto_delete_in_days: user.auto_delete_in_days,
    hwid_limit: user.hwid_limit,
    next_plan: user.next_plan,
    id: user.id,
    username: user.username,
    status: user.status,
    used_traffic: user.used_traffic,
    lifetime_used_traffic: user.reseted_usage + user.used_traffic,
    created_at: awareUtc(user.created_at),
    edit_at: awareUtc(user.edit_at),
    online_at: awareUtc(user.online_at),
    subscription_url: subscriptionUrl,
    admin: { ...user.admin },
  };
}

/**
 * process_inbounds_and_tags: every host whose inbound belongs to one of the user's *enabled* groups, and
 * whose status filter is empty or names the user's status. The user's status is not checked otherwise:
 * a disabled, expired or limited user gets the same servers (the nodes just refuse it).
 */
export function userServers(user: PasarguardUser, groups: Map<number, PasarguardGroup>, inbounds: PasarguardInbound[], hosts: PasarguardHost[]): ProxyServer[] {
  const tags = new Set(user.group_ids.flatMap((id) => (groups.get(id)?.is_disabled === false ? groups.get(id)!.inbound_tags : [])));
  const servers: ProxyServer[] = [];
  for (const host of hosts) {
    const inbound = inbounds.find((i) => i.tag === host.inbound_tag);
    if (!inbound || !tags.has(inbound.tag) || (host.status.length > 0 && !host.status.includes(user.status))) continue;
    const settings = user.proxy_settings;
    servers.push({
      protocol: inbound.protocol,
      name: host.remark.replaceAll('{USERNAME}', user.username).replaceAll('{PROTOCOL}', inbound.protocol).replaceAll('{TRANSPORT}', inbound.network),
      host: host.address,
      port: inbound.port,
      network: inbound.network,
      tls: inbound.tls,
      uuid: inbound.protocol === 'vless' ? settings.vless.id : inbound.protocol === 'vmess' ? settings.vmess.id : undefined,
      password: inbound.protocol === 'trojan' ? settings.trojan.password : inbound.protocol === 'shadowsocks' ? settings.shadowsocks.password : undefined,
      method: inbound.protocol === 'shadowsocks' ? settings.shadowsocks.method : undefined,
      path: inbound.path,
    });
  }
  return servers;
}

/**
 * Subscription tokens as app/utils/jwt.py create_subscription_token makes them: base64url of
 * `v3,<user id>,<ceil(unix seconds)>`, a dot, and the base64url HMAC-SHA256 of that payload. A new token
 * every second; all stay valid until the user's `sub_revoked_at`.
 */
export class SubTokens {
  private readonly secret = randomBytes(32);

  issue(userId: number, nowMs = Date.now()): string {
    const data = Buffer.from(`v3,${userId},${Math.ceil(nowMs / 1000)}`).toString('base64url');
    return `${data}.${this.sign(data)}`;
  }

  read(token: string): { userId: number; createdMs: number } | null {
    if (token.length < 15 || !token.includes('.')) return null;
    const dot = token.lastIndexOf('.');
    const data = token.slice(0, dot);
    if (this.sign(data) !== token.slice(dot + 1)) return null;
    const [version, id, created] = Buffer.from(data, 'base64url').toString('utf8').split(',');
    if ((version !== 'v3' && version !== 'v2') || !/^\d+$/.test(id ?? '') || !/^\d+$/.test(created ?? '')) return null;
    return { userId: Number(id), createdMs: Number(created) * 1000 };
  }

  private sign(data: string): string {
    return createHmac('sha256', this.secret).update(data).digest('base64url');
  }
}
