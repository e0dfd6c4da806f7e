import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { toLink, type ProxyServer } from './subscription.js';
import { BodyCheck, naiveUtc, type Json } from './validate.js';

export const PROTOCOLS = ['vmess', 'vless', 'trojan', 'shadowsocks'] as const;
export type Protocol = (typeof PROTOCOLS)[number];
export const STATUSES = ['active', 'disabled', 'limited', 'expired', 'on_hold'] as const;
export type MarzbanStatus = (typeof STATUSES)[number];
export const RESET_STRATEGIES = ['no_reset', 'day', 'week', 'month', 'year'] as const;
export type ResetStrategy = (typeof RESET_STRATEGIES)[number];

export interface NextPlan {
  data_limit: number | null;
  expire: number | null;
  add_remaining_traffic: boolean;
  fire_on_either: boolean;
}

/**
 * A Marzban user as the panel stores it. As in Marzban's database, a user keeps per protocol the
 * inbound tags it is *excluded* from; the `inbounds` of the API are all tags of the protocol minus those.
 */
export interface MarzbanUser {
  id: number;
  username: string;
  /** Protocol → settings (`{id, flow}`, `{password, method}`…). Empty = the broken user a create without `proxies` leaves. */
  proxies: Partial<Record<Protocol, Record<string, unknown>>>;
  excluded_inbounds: Partial<Record<Protocol, string[]>>;
  /** Unix seconds; null = never. */
  expire: number | null;
  /** Bytes; null = unlimited. */
  data_limit: number | null;
  data_limit_reset_strategy: ResetStrategy;
  status: MarzbanStatus;
  used_traffic: number;
  lifetime_used_traffic: number;
  note: string | null;
  sub_updated_at: Date | null;
  sub_last_user_agent: string | null;
  online_at: Date | null;
  on_hold_expire_duration: number | null;
  on_hold_timeout: Date | null;
  auto_delete_in_days: number | null;
  next_plan: NextPlan | null;
  created_at: Date;
  edit_at: Date | null;
  /** Subscription tokens issued before this instant are refused. */
  sub_revoked_at: Date | null;
  /** The owning admin's username. */
  admin: string;
}

export interface MarzbanInbound {
  tag: string;
  protocol: Protocol;
  network: string;
  tls: string;
  port: number;
  /** Host address in links (not part of `GET /api/inbounds`). Default `nl1.example.test`. */
  address?: string;
  path?: string;
}

export const DEFAULT_INBOUNDS: MarzbanInbound[] = [
  { tag: 'VLESS TCP TLS', protocol: 'vless', network: 'tcp', tls: 'tls', port: 443 },
  { tag: 'VMess Websocket', protocol: 'vmess', network: 'ws', tls: 'tls', port: 443, path: '/vmess' },
  { tag: 'Trojan TCP TLS', protocol: 'trojan', network: 'tcp', tls: 'tls', port: 8443 },
  { tag: 'Shadowsocks TCP', protocol: 'shadowsocks', network: 'tcp', tls: 'none', port: 1080 },
];

/** Marzban's default host remark. */
const REMARK = '🚀 Marz ({USERNAME}) [{PROTOCOL} - {TRANSPORT}]';

const randomPassword = (): string => randomBytes(16).toString('base64url');

/** ProxySettings.from_dict: the given settings, with fresh credentials for whatever is missing. */
export function proxySettings(protocol: Protocol, given: Json = {}): Record<string, unknown> {
  const str = (key: string): string | undefined => (typeof given[key] === 'string' ? given[key] : undefined);
  switch (protocol) {
    case 'vless':
      return { id: str('id') ?? randomUUID(), flow: str('flow') ?? '' };
    case 'vmess':
      return { id: str('id') ?? randomUUID() };
    case 'trojan':
      return { password: str('password') ?? randomPassword(), flow: str('flow') ?? '' };
    case 'shadowsocks':
      return { password: str('password') ?? randomPassword(), method: str('method') ?? 'chacha20-ietf-poly1305' };
  }
}

/** The job that reviews users every few seconds, run before every read: active → limited/expired, on_hold → active. */
export function reviewUser(user: MarzbanUser): void {
  const now = Date.now();
  if (user.status === 'active') {
    if (user.data_limit && user.used_traffic >= user.data_limit) user.status = 'limited';
    else if (user.expire && user.expire * 1000 <= now) user.status = 'expired';
  } else if (user.status === 'on_hold') {
    const base = (user.edit_at ?? user.created_at).getTime();
    const connected = user.online_at && user.online_at.getTime() >= base;
    const timedOut = user.on_hold_timeout && user.on_hold_timeout.getTime() <= now;
    if (connected || timedOut) {
      user.status = 'active';
      user.expire = Math.floor(now / 1000) + (user.on_hold_expire_duration ?? 0);
      user.on_hold_expire_duration = null;
      user.on_hold_timeout = null;
    }
  }
}

export function userInbounds(user: MarzbanUser, inbounds: MarzbanInbound[]): Partial<Record<Protocol, string[]>> {
  const out: Partial<Record<Protocol, string[]>> = {};
  for (const protocol of Object.keys(user.proxies) as Protocol[]) {
    const excluded = user.excluded_inbounds[protocol] ?? [];
    out[protocol] = inbounds.filter((i) => i.protocol === protocol && !excluded.includes(i.tag)).map((i) => i.tag);
  }
  return out;
}

export function userServers(user: MarzbanUser, inbounds: MarzbanInbound[]): ProxyServer[] {
  const servers: ProxyServer[] = [];
  for (const [protocol, tags] of Object.entries(userInbounds(user, inbounds)) as Array<[Protocol, string[]]>) {
    const settings = user.proxies[protocol] ?? {};
    for (const inbound of inbounds.filter((i) => tags.includes(i.tag))) {
      servers.push({
        protocol,
        name: REMARK.replace('{USERNAME}', user.username).replace('{PROTOCOL}', protocol.toUpperCase()).replace('{TRANSPORT}', inbound.network),
        host: inbound.address ?? 'nl1.example.test',
        port: inbound.port,
        network: inbound.network === 'ws' ? 'ws' : 'tcp',
        tls: inbound.tls === 'tls',
        uuid: settings.id as string | undefined,
        password: settings.password as string | undefined,
        method: settings.method as string | undefined,
        path: inbound.path,
      });
    }
  }
  return servers;
}

/** Subscription tokens: `base64url("username,issued-ms")` + 10 signature characters, like Marzban's (ms instead of s so every GET differs). */
export class SubTokens {
  private readonly secret = randomBytes(16).toString('hex');
  private last = 0;

  /** A strictly increasing millisecond clock, so "issued before the revoke" is never a tie. */
  tick(): number {
    this.last = Math.max(Date.now(), this.last + 1);
    return this.last;
  }

  issue(username: string): string {
    const data = Buffer.from(`${username},${this.tick()}`).toString('base64url');
    return data + this.sign(data);
  }

  read(token: string): { username: string; issuedMs: number } | null {
    if (token.length <= 10) return null;
    const data = token.slice(0, -10);
    if (this.sign(data) !== token.slice(-10)) return null;
    const decoded = Buffer.from(data, 'base64url').toString('utf8');
    const comma = decoded.lastIndexOf(',');
    const issuedMs = Number(decoded.slice(comma + 1));
    return comma > 0 && Number.isFinite(issuedMs) ? { username: decoded.slice(0, comma), issuedMs } : null;
  }

  private sign(data: string): string {
    return createHash('sha256')
      .update(data + this.secret)
      .digest('base64url')
      .slice(0, 10);
  }
}

/** UserResponse.model_validate: a user without proxies fails response validation, which FastAPI answers with a 500. */
export function serializeUser(user: MarzbanUser, inbounds: MarzbanInbound[], subscriptionUrl: string, admin: { is_sudo: boolean }): Record<string, unknown> {
  if (Object.keys(user.proxies).length === 0) throw new Error('Each user needs at least one proxy');
  const own = userInbounds(user, inbounds);
  const excluded: Partial<Record<Protocol, string[]>> = {};
  for (const protocol of Object.keys(user.proxies) as Protocol[]) {
    excluded[protocol] = inbounds.filter((i) => i.protocol === protocol && !own[protocol]!.includes(i.tag)).map((i) => i.tag);
  }
  return {
    proxies: structuredClone(user.proxies),
    expire: user.expire,
    data_limit: user.data_limit,
    data_limit_reset_strategy: user.data_limit_reset_strategy,
    inbounds: own,
    note: user.note,
    sub_updated_at: naiveUtc(user.sub_updated_at),
    sub_last_user_agent: user.sub_last_user_agent,
    online_at: naiveUtc(user.online_at),
    on_hold_expire_duration: user.on_hold_expire_duration,
    on_hold_timeout: naiveUtc(user.on_hold_timeout),
    auto_delete_in_days: user.auto_delete_in_days,
    next_plan: user.next_plan ? { ...user.next_plan } : null,
    username: user.username,
    status: user.status,
    used_traffic: user.used_traffic,
    lifetime_used_traffic: user.lifetime_used_traffic,
    created_at: naiveUtc(user.created_at),
    links: userServers(user, inbounds).map(toLink),
    subscription_url: subscriptionUrl,
    excluded_inbounds: excluded,
    admin: { username: user.admin, is_sudo: admin.is_sudo, telegram_id: null, discord_webhook: null, users_usage: 0 },
  };
}

export const USERNAME = /^(?=\w{3,32}\b)[a-zA-Z0-9\-_@.]+$/;
const USERNAME_ERROR = 'Value error, Username only can be 3 to 32 characters and contain a-z, 0-9, and underscores in between.';
const PROTOCOL_ENUM = "Input should be 'vmess', 'vless', 'trojan' or 'shadowsocks'";

export interface MarzbanFields {
  username?: string;
  proxies?: Partial<Record<Protocol, Json>>;
  inbounds?: Partial<Record<Protocol, string[]>>;
  expire?: number | null;
  data_limit?: number | null;
  data_limit_reset_strategy?: ResetStrategy | null;
  note?: string | null;
  status?: MarzbanStatus | null;
  on_hold_expire_duration?: number | null;
  on_hold_timeout?: Date | null;
  auto_delete_in_days?: number | null;
  next_plan?: NextPlan | null;
}

function checkProtocolMap(check: BodyCheck, key: string): Json | undefined {
  const value = check.object(key);
  if (!value) return undefined;
  for (const protocol of Object.keys(value)) {
    if (!(PROTOCOLS as readonly string[]).includes(protocol)) check.fail('[key]', PROTOCOL_ENUM);
  }
  return value;
}

/** Pydantic validation of UserCreate / UserModify (field validators, then the status validator). */
export function checkMarzbanBody(check: BodyCheck, mode: 'create' | 'modify', allTags: string[]): MarzbanFields {
  const create = mode === 'create';
  const fields: MarzbanFields = {};
  const proxies = checkProtocolMap(check, 'proxies');
  if (proxies) {
    if (create && Object.keys(proxies).length === 0) check.fail('proxies', 'Value error, Each user needs at least one proxy');
    fields.proxies = {};
    for (const [protocol, settings] of Object.entries(proxies)) {
      if (settings !== null && (typeof settings !== 'object' || Array.isArray(settings))) check.fail(protocol, 'Input should be a valid dictionary');
      else fields.proxies[protocol as Protocol] = (settings ?? {}) as Json;
    }
  }
  fields.expire = check.int('expire');
  if (check.has('data_limit')) {
    const raw = check.body.data_limit;
    if (raw !== null && typeof raw !== 'number') check.fail('data_limit', 'Value error, data_limit must be an integer or a float, not a string');
    else if (typeof raw === 'number' && raw < 0) check.fail('data_limit', 'Input should be greater than or equal to 0');
    else fields.data_limit = raw === null ? null : Math.trunc(raw);
  }
  fields.data_limit_reset_strategy = check.enumOf('data_limit_reset_strategy', RESET_STRATEGIES, { nullable: !create });
  const inbounds = checkProtocolMap(check, 'inbounds');
  if (inbounds) {
    fields.inbounds = {};
    for (const [protocol, tags] of Object.entries(inbounds)) {
      if (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')) {
        check.fail(protocol, 'Input should be a valid list');
        continue;
      }
      const missing = (tags as string[]).find((tag) => !allTags.includes(tag));
      if (missing !== undefined) check.fail('inbounds', `Value error, Inbound ${missing} doesn't exist`);
      fields.inbounds[protocol as Protocol] = tags as string[];
    }
  }
  const note = check.str('note');
  if (typeof note === 'string' && note.length > 500) check.fail('note', "Value error, User's note can be a maximum of 500 character");
  fields.note = note;
  fields.on_hold_expire_duration = check.int('on_hold_expire_duration') || (check.has('on_hold_expire_duration') ? null : undefined);
  const timeout = check.body.on_hold_timeout === 0 ? null : check.datetime('on_hold_timeout');
  fields.on_hold_timeout = timeout;
  fields.auto_delete_in_days = check.int('auto_delete_in_days');
  const plan = check.object('next_plan');
  if (plan) {
    const sub = new BodyCheck(plan);
    fields.next_plan = {
      data_limit: sub.int('data_limit') ?? null,
      expire: sub.int('expire') ?? null,
      add_remaining_traffic: sub.bool('add_remaining_traffic', { nullable: false }) ?? false,
      fire_on_either: sub.bool('fire_on_either', { nullable: false }) ?? true,
    };
    Object.entries(sub.errors).forEach(([k, v]) => check.fail(k, v));
  } else if (plan === null) {
    fields.next_plan = null;
  }
  const allowed = create ? (['active', 'on_hold'] as const) : (['active', 'disabled', 'on_hold'] as const);
  fields.status = check.enumOf('status', allowed as readonly MarzbanStatus[]);
  if (fields.status === 'on_hold') {
    if (!fields.on_hold_expire_duration) check.fail('status', 'Value error, User cannot be on hold without a valid on_hold_expire_duration.');
    else if (fields.expire) check.fail('status', 'Value error, User cannot be on hold with specified expire.');
  }
  if (create) {
    const username = check.str('username', { required: true, nullable: false });
    if (typeof username === 'string' && !USERNAME.test(username)) check.fail('username', USERNAME_ERROR);
    fields.username = username ?? undefined;
  }
  return fields;
}
