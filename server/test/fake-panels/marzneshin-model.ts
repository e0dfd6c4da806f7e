import { randomBytes } from 'node:crypto';
import { BodyCheck, naiveUtc } from './validate.js';
import type { ProxyServer } from './subscription.js';

export const EXPIRE_STRATEGIES = ['never', 'fixed_date', 'start_on_first_use'] as const;
export type ExpireStrategy = (typeof EXPIRE_STRATEGIES)[number];
export const RESET_STRATEGIES = ['no_reset', 'day', 'week', 'month', 'year'] as const;
export type ResetStrategy = (typeof RESET_STRATEGIES)[number];

/** A Marzneshin user as the panel stores it. `expired`, `data_limit_reached`, `is_active`, `activated` are derived. */
export interface MarzneshinUser {
  id: number;
  username: string;
  expire_strategy: ExpireStrategy;
  expire_date: Date | null;
  /** Seconds. */
  usage_duration: number | null;
  activation_deadline: Date | null;
  key: string;
  /** Bytes; null = unlimited. */
  data_limit: number | null;
  data_limit_reset_strategy: ResetStrategy;
  note: string | null;
  sub_updated_at: Date | null;
  sub_last_user_agent: string | null;
  online_at: Date | null;
  enabled: boolean;
  used_traffic: number;
  lifetime_used_traffic: number;
  sub_revoked_at: Date | null;
  created_at: Date;
  service_ids: number[];
  owner_username: string;
  traffic_reset_at: Date | null;
}

export interface MarzneshinHost {
  address: string;
  port: number;
  /** `{USERNAME}` is replaced by the user's name. */
  remark: string;
}

export interface MarzneshinInbound {
  id: number;
  tag: string;
  hosts: MarzneshinHost[];
}

export interface MarzneshinService {
  id: number;
  name: string;
  inbound_ids: number[];
}

export interface MarzneshinNode {
  id: number;
  name: string;
  address: string;
  port: number;
  status: 'healthy' | 'unhealthy' | 'disabled';
  message: string | null;
}

export const DEFAULT_INBOUNDS: MarzneshinInbound[] = [
  {
    id: 1,
    tag: 'VLESS TCP TLS DE',
    hosts: [
      { address: 'de1.example.test', port: 443, remark: 'DE-{USERNAME}' },
      { address: 'de2.example.test', port: 443, remark: 'DE2-{USERNAME}' },
    ],
  },
  { id: 2, tag: 'VLESS TCP TLS NL', hosts: [{ address: 'nl1.example.test', port: 443, remark: 'NL-{USERNAME}' }] },
];

export const DEFAULT_SERVICES: MarzneshinService[] = [
  { id: 1, name: 'Germany', inbound_ids: [1] },
  { id: 2, name: 'Netherlands', inbound_ids: [2] },
];

export const DEFAULT_NODES: MarzneshinNode[] = [
  { id: 1, name: 'de1', address: 'de1.example.test', port: 53042, status: 'healthy', message: null },
  { id: 2, name: 'nl1', address: 'nl1.example.test', port: 53042, status: 'healthy', message: null },
];

export const newKey = (): string => randomBytes(16).toString('hex');

/** Marzneshin derives each user's proxy UUID from its key. */
export const keyToUuid = (key: string): string => `${key.slice(0, 8)}-${key.slice(8, 12)}-${key.slice(12, 16)}-${key.slice(16, 20)}-${key.slice(20, 32)}`;

/** What the panel's background jobs would have done by now: a start_on_first_use user that connected starts its clock. */
export function refreshUser(user: MarzneshinUser): void {
  if (user.expire_strategy === 'start_on_first_use' && (user.online_at || user.used_traffic > 0) && user.usage_duration) {
    user.expire_strategy = 'fixed_date';
    user.expire_date = new Date(Date.now() + user.usage_duration * 1000);
    user.usage_duration = null;
    user.activation_deadline = null;
  }
}

export function userFlags(user: MarzneshinUser): { expired: boolean; data_limit_reached: boolean; is_active: boolean } {
  const now = Date.now();
  const expired =
    (user.expire_strategy === 'fixed_date' && !!user.expire_date && user.expire_date.getTime() <= now) ||
    (user.expire_strategy === 'start_on_first_use' && !!user.activation_deadline && user.activation_deadline.getTime() <= now);
  const data_limit_reached = user.data_limit !== null && user.used_traffic >= user.data_limit;
  return { expired, data_limit_reached, is_active: user.enabled && !expired && !data_limit_reached };
}

/** The status a driver derives (panels.md order): disabled, expired, limited, on_hold, active. */
export function marzneshinStatus(user: MarzneshinUser): 'active' | 'disabled' | 'limited' | 'expired' | 'on_hold' {
  const flags = userFlags(user);
  if (!user.enabled) return 'disabled';
  if (flags.expired) return 'expired';
  if (flags.data_limit_reached) return 'limited';
  if (user.expire_strategy === 'start_on_first_use') return 'on_hold';
  return 'active';
}

/** The user JSON exactly as the panel answers it (field order included). */
export function serializeUser(user: MarzneshinUser, subscriptionUrlPrefix: string): Record<string, unknown> {
  const flags = userFlags(user);
  return {
    id: user.id,
    username: user.username,
    expire_strategy: user.expire_strategy,
    expire_date: naiveUtc(user.expire_date),
    usage_duration: user.usage_duration,
    activation_deadline: naiveUtc(user.activation_deadline),
    key: user.key,
    data_limit: user.data_limit,
    data_limit_reset_strategy: user.data_limit_reset_strategy,
    note: user.note,
    sub_updated_at: naiveUtc(user.sub_updated_at),
    sub_last_user_agent: user.sub_last_user_agent,
    online_at: naiveUtc(user.online_at),
    activated: flags.is_active,
    is_active: flags.is_active,
    expired: flags.expired,
    data_limit_reached: flags.data_limit_reached,
    enabled: user.enabled,
    used_traffic: user.used_traffic,
    lifetime_used_traffic: user.lifetime_used_traffic,
    sub_revoked_at: naiveUtc(user.sub_revoked_at),
    created_at: naiveUtc(user.created_at),
    service_ids: [...user.service_ids],
    subscription_url: `${subscriptionUrlPrefix}/sub/${user.username}/${user.key}`,
    owner_username: user.owner_username,
    traffic_reset_at: naiveUtc(user.traffic_reset_at),
  };
}

/** The user's servers: every host of every inbound of its services (each inbound once). */
export function userServers(user: MarzneshinUser, services: MarzneshinService[], inbounds: MarzneshinInbound[]): ProxyServer[] {
  const inboundIds = new Set<number>();
  for (const service of services) {
    if (user.service_ids.includes(service.id)) service.inbound_ids.forEach((id) => inboundIds.add(id));
  }
  return inbounds
    .filter((inbound) => inboundIds.has(inbound.id))
    .flatMap((inbound) =>
      inbound.hosts.map((host): ProxyServer => ({
        protocol: 'vless',
        name: host.remark.replaceAll('{USERNAME}', user.username),
        host: host.address,
        port: host.port,
        network: 'tcp',
        tls: true,
        uuid: keyToUuid(user.key),
      })),
    );
}

const USERNAME = /^[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]{3,32}$/u;

/** The fields of a create (`UserCreate`) or modify (`UserModify`) body after validation. */
export interface UserFields {
  username: string;
  expire_strategy: ExpireStrategy | null;
  expire_date: Date | null;
  usage_duration: number | null;
  activation_deadline: Date | null;
  key: string | undefined;
  data_limit: number | null;
  data_limit_reset_strategy: ResetStrategy | null;
  note: string | null;
  service_ids: number[] | null;
}

/** Pydantic validation of the user body; `errors` non-empty means a 422. */
export function checkUserBody(check: BodyCheck, mode: 'create' | 'modify'): UserFields | null {
  const create = mode === 'create';
  const username = check.str('username', {
    required: true,
    nullable: false,
    lower: true,
    pattern: USERNAME,
    patternText: '^\\w{3,32}$',
  });
  const expire_strategy = check.enumOf('expire_strategy', EXPIRE_STRATEGIES, { required: create, nullable: !create });
  const expire_date = check.datetime('expire_date');
  const usage_duration = check.int('usage_duration');
  const activation_deadline = check.datetime('activation_deadline');
  const key = check.str('key', { nullable: false });
  const data_limit = check.int('data_limit', { ge: 0 });
  const data_limit_reset_strategy = check.enumOf('data_limit_reset_strategy', RESET_STRATEGIES, { nullable: !create });
  const note = check.str('note', { maxLength: 500 });
  const service_ids = check.intList('service_ids', { nullable: !create });
  if (!check.ok || typeof username !== 'string') return null;

  const fields: UserFields = {
    username,
    expire_strategy: expire_strategy ?? null,
    expire_date: expire_date ?? null,
    usage_duration: usage_duration ?? null,
    activation_deadline: activation_deadline ?? null,
    key: key ?? undefined,
    data_limit: data_limit ?? null,
    data_limit_reset_strategy: data_limit_reset_strategy ?? (create ? 'no_reset' : null),
    note: note ?? null,
    service_ids: service_ids ?? (create ? [] : null),
  };
  // The model validator (mode="after"): errors at loc ("body",).
  if (!fields.expire_strategy && (fields.expire_date || fields.usage_duration || fields.activation_deadline)) {
    check.fail('body', "Value error, You cannot provide expiry-related fields without specifying an 'expire_strategy'.");
  } else if (fields.expire_strategy === 'start_on_first_use') {
    if (!fields.usage_duration) {
      check.fail('body', 'Value error, User expire_strategy cannot be start_on_first_use without a valid usage_duration.');
    }
    fields.expire_date = null;
  } else if (fields.expire_strategy === 'fixed_date') {
    if (!fields.expire_date) {
      check.fail('body', 'Value error, User expire_strategy cannot be fixed_date without a valid expire date.');
    }
    fields.usage_duration = null;
    fields.activation_deadline = null;
  } else if (fields.expire_strategy === 'never') {
    fields.expire_date = null;
    fields.usage_duration = null;
    fields.activation_deadline = null;
  }
  return check.ok ? fields : null;
}
