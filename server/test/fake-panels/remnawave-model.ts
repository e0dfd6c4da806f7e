import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ProxyServer } from './subscription.js';

/**
 * Remnawave 3.x (backend 3.3.2) as its source shows it: the user model, the request schemas of
 * `libs/contract/commands/users/*`, the error catalogue of `libs/contract/constants/errors/errors.ts`
 * and the bodies its exception filters write. Validation uses zod 4 like the panel (nestjs-zod), so
 * the `errors` of a 400 are real zod issues.
 */

export const USER_STATUSES = ['ACTIVE', 'DISABLED', 'LIMITED', 'EXPIRED'] as const;
export type RemnawaveStatus = (typeof USER_STATUSES)[number];
export const RESET_PERIODS = ['NO_RESET', 'DAY', 'WEEK', 'MONTH', 'MONTH_ROLLING'] as const;
export type ResetPeriod = (typeof RESET_PERIODS)[number];

/** A host of a squad: one line of the user's subscription. */
export interface RemnawaveHost {
  protocol: 'vless' | 'trojan';
  address: string;
  port: number;
  /** `{{USERNAME}}` is replaced by the user's name (the panel's template syntax). */
  remark: string;
}

export interface RemnawaveSquad {
  uuid: string;
  name: string;
  hosts: RemnawaveHost[];
}

/** A user as the fake stores it (`users` + `user_traffic` rows); `status` is stored, and moved by the panel's jobs. */
export interface RemnawaveUser {
  id: number;
  shortUuid: string;
  username: string;
  status: RemnawaveStatus;
  trafficLimitBytes: number;
  trafficLimitStrategy: ResetPeriod;
  expireAt: Date;
  telegramId: number | null;
  email: string | null;
  description: string | null;
  tag: string | null;
  /** null = the global HWID setting's fallback limit; 0 = no limit at all. */
  hwidDeviceLimit: number | null;
  externalSquadUuid: string | null;
  trojanPassword: string;
  vlessUuid: string;
  ssPassword: string;
  lastTriggeredThreshold: number;
  subRevokedAt: Date | null;
  lastTrafficResetAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** Internal squad UUIDs. */
  activeInternalSquads: string[];
  usedTrafficBytes: number;
  lifetimeUsedTrafficBytes: number;
  onlineAt: Date | null;
  firstConnectedAt: Date | null;
  lastConnectedNodeUuid: string | null;
}

export const DEFAULT_SQUADS: RemnawaveSquad[] = [
  {
    uuid: '6f1c2d4e-3b5a-4c7d-8e9f-0a1b2c3d4e5f',
    name: 'Default-Squad',
    hosts: [
      { protocol: 'vless', address: 'de1.example.test', port: 443, remark: 'DE {{USERNAME}}' },
      { protocol: 'trojan', address: 'de2.example.test', port: 443, remark: 'DE2 {{USERNAME}}' },
    ],
  },
  {
    uuid: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
    name: 'Netherlands',
    hosts: [{ protocol: 'vless', address: 'nl1.example.test', port: 8443, remark: 'NL {{USERNAME}}' }],
  },
];

/** The seeded custom remarks (prisma/seed/seeders/8_seed-subscription-settings.ts). */
export const DEFAULT_CUSTOM_REMARKS = {
  expiredUsers: ['⌛ Subscription expired', 'Contact support'],
  limitedUsers: ['🚧 Subscription limited', 'Contact support'],
  disabledUsers: ['🚫 Subscription disabled', 'Contact support'],
  emptyHosts: ['→ Remnawave', '→ No hosts found', '→ Check Hosts tab', '→ Check Internal Squads tab'],
  HWIDMaxDevicesExceeded: ['Limit of devices reached'],
  HWIDNotSupported: ['App not supported'],
};

/** The seeded `customResponseHeaders` (values after the panel's template engine). */
export const DEFAULT_RESPONSE_HEADERS = {
  'profile-title': `base64:${Buffer.from('Remnawave').toString('base64')}`,
  'profile-update-interval': '12',
  'support-url': 'https://dummy.docs.rw',
};

// ---- errors -----------------------------------------------------------------------------------

export interface PanelErrorDef {
  code: string;
  message: string;
  httpCode: number;
}

/** The entries of the panel's ERRORS catalogue that the users, squads and system routes use. */
export const ERRORS = {
  INTERNAL_SERVER_ERROR: { code: 'A001', message: 'Server error', httpCode: 500 },
  FORBIDDEN_ROLE_ERROR: { code: 'A004', message: 'Forbidden role error', httpCode: 403 },
  CREATE_USER_ERROR: { code: 'A018', message: 'Failed to create user', httpCode: 500 },
  USER_USERNAME_ALREADY_EXISTS: { code: 'A019', message: 'User username already exists', httpCode: 400 },
  USER_SHORT_UUID_ALREADY_EXISTS: { code: 'A020', message: 'User short UUID already exists', httpCode: 400 },
  USER_NOT_FOUND: { code: 'A025', message: 'User not found', httpCode: 404 },
  USER_ALREADY_DISABLED: { code: 'A029', message: 'User already disabled', httpCode: 400 },
  USER_ALREADY_ENABLED: { code: 'A030', message: 'User already enabled', httpCode: 400 },
  UPDATE_USER_ERROR: { code: 'A039', message: 'Update user error', httpCode: 500 },
  GET_USER_BY_UNIQUE_FIELDS_NOT_FOUND: { code: 'A063', message: 'User with specified params not found', httpCode: 404 },
  FORBIDDEN: { code: 'A068', message: 'Forbidden', httpCode: 403 },
} as const satisfies Record<string, PanelErrorDef>;

export interface JsonReply {
  status: number;
  /** undefined = no body (204). */
  body?: unknown;
}

/** HttpExceptionFilter: `{timestamp, path, message, errorCode}`; a 403's message is always 'Forbidden'. */
export function errorReply(path: string, error: PanelErrorDef): JsonReply {
  return {
    status: error.httpCode,
    body: { timestamp: new Date().toISOString(), path, message: error.httpCode === 403 ? 'Forbidden' : error.message, errorCode: error.code },
  };
}

/** ZodValidationException through HttpExceptionFilter: the exception's own response, zod issues included. */
export function validationReply(error: z.ZodError): JsonReply {
  return { status: 400, body: { statusCode: 400, message: 'Validation failed', errors: error.issues } };
}

/** Nest's default filter: what a guard's plain UnauthorizedException / ForbiddenException becomes. */
export const UNAUTHORIZED: JsonReply = { status: 401, body: { message: 'Unauthorized', statusCode: 401 } };
export const FORBIDDEN_RESOURCE: JsonReply = { status: 403, body: { message: 'Forbidden resource', error: 'Forbidden', statusCode: 403 } };
export const ADMIN_JWT_FOR_API: JsonReply = {
  status: 403,
  body: { message: 'For API requests you must create own API-token in the admin dashboard.', error: 'Forbidden', statusCode: 403 },
};
/** Nest's 404 for a route it does not have. */
export const routeNotFound = (method: string, path: string): JsonReply => ({
  status: 404,
  body: { message: `Cannot ${method} ${path}`, error: 'Not Found', statusCode: 404 },
});

// ---- request schemas (libs/contract/commands/users) ------------------------------------------

const isoDate = z.iso.datetime({ offset: true, local: true }).transform((value) => new Date(value));

export const CreateUserBody = z.object({
  username: z
    .string()
    .regex(/^[a-zA-Z0-9_-]+$/, 'Username can only contain letters, numbers, underscores and dashes')
    .max(36, 'Username must be less than 36 characters')
    .min(3, 'Username must be at least 3 characters'),
  status: z.enum(USER_STATUSES).default('ACTIVE').optional(),
  shortUuid: z.string().optional(),
  trojanPassword: z.string().min(8).max(32).optional(),
  vlessUuid: z.guid('Invalid Vless UUID format').optional(),
  ssPassword: z.string().min(8).max(32).optional(),
  trafficLimitBytes: z.number().min(0, 'Traffic limit must be greater than 0').optional(),
  trafficLimitStrategy: z.optional(z.enum(RESET_PERIODS).default('NO_RESET')),
  expireAt: isoDate,
  createdAt: isoDate.optional(),
  lastTrafficResetAt: isoDate.optional(),
  description: z.string().optional(),
  tag: z.optional(
    z
      .string()
      .regex(/^[A-Z0-9_]+$/)
      .max(16)
      .nullable(),
  ),
  telegramId: z.number().nullish(),
  email: z.email().nullish(),
  hwidDeviceLimit: z.optional(z.int().min(0)),
  activeInternalSquads: z.array(z.uuid()).optional(),
  externalSquadUuid: z.optional(z.nullable(z.uuid())),
});

export const UpdateUserBody = z
  .object({
    username: z.optional(z.string()),
    id: z.optional(z.number()),
    status: z.enum(['ACTIVE', 'DISABLED']).optional(),
    trafficLimitBytes: z.number().min(0).optional(),
    trafficLimitStrategy: z.enum(RESET_PERIODS).optional(),
    expireAt: z.iso
      .datetime({ local: true, offset: true })
      .transform((value) => new Date(value))
      .refine((date) => date > new Date(), { error: 'Expiration date cannot be in the past' })
      .optional(),
    description: z.optional(z.string().nullable()),
    tag: z.optional(
      z
        .string()
        .regex(/^[A-Z0-9_]+$/)
        .max(16)
        .nullable(),
    ),
    telegramId: z.number().nullish(),
    email: z.email().nullish(),
    hwidDeviceLimit: z.int().min(0).nullish(),
    activeInternalSquads: z.array(z.uuid()).optional(),
    externalSquadUuid: z.optional(z.nullable(z.uuid())),
  })
  .refine((body) => body.username ?? body.id, { error: 'At least one of username, id must be provided' });

export const ExtendUserBody = z.object({ days: z.number().min(1) });
export const UserIdParams = z.object({ userId: z.coerce.number().positive() });

export const UsersQuery = z.object({
  start: z.coerce.number().default(0),
  size: z.coerce.number().min(1, 'Size (limit) must be greater than 0').max(1000, 'Size (limit) must be less than 1000').default(25),
  sorting: z
    .preprocess((value) => (typeof value === 'string' ? JSON.parse(value) : value), z.array(z.object({ id: z.string(), desc: z.boolean() })))
    .optional(),
});

/** `/api/sub/:shortUuid/:clientType` (REQUEST_TEMPLATE_TYPE) and the response type each one forces. */
export const CLIENT_TYPES = {
  stash: 'STASH',
  singbox: 'SINGBOX',
  mihomo: 'MIHOMO',
  json: 'XRAY_JSON',
  'v2ray-json': 'XRAY_JSON',
  clash: 'CLASH',
} as const;
export type ResponseType = 'BROWSER' | 'XRAY_BASE64' | 'XRAY_JSON' | 'MIHOMO' | 'STASH' | 'CLASH' | 'SINGBOX';

/** The seeded subscription response rules (prisma/seed/default/response-rules.ts), in order. */
export function matchResponseRule(headers: { accept?: string; 'user-agent'?: string }): ResponseType {
  const userAgent = headers['user-agent'] ?? '';
  if ((headers.accept ?? '').includes('text/html')) return 'BROWSER';
  if (/^(?:flclash|flowvy|murge|mihomo|prizrak-box|koala-clash|clash(?:-verge|-nyanpasu|x meta|[-.]?meta))/i.test(userAgent)) return 'MIHOMO';
  if (/^stash/i.test(userAgent)) return 'STASH';
  // Upstream's pattern: only `sfa` is anchored.
  if (/^sfa|sfi|sfm|sft|karing|singbox/i.test(userAgent)) return 'SINGBOX';
  if (/^clash/i.test(userAgent)) return 'CLASH';
  return 'XRAY_BASE64';
}

// ---- model --------------------------------------------------------------------------------------

const ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ_abcdefghjkmnopqrstuvwxyz-';

/** The panel's nanoid over its own alphabet (SHORT_UUID_LENGTH defaults to 16; passwords are 32). */
export function nanoid(length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

export function newUser(id: number, fields: z.infer<typeof CreateUserBody>): RemnawaveUser {
  const now = new Date();
  return {
    id,
    shortUuid: fields.shortUuid || nanoid(16),
    username: fields.username,
    status: fields.status ?? 'ACTIVE',
    trafficLimitBytes: fields.trafficLimitBytes ?? 0,
    trafficLimitStrategy: fields.trafficLimitStrategy ?? 'NO_RESET',
    expireAt: fields.expireAt,
    telegramId: fields.telegramId ?? null,
    email: fields.email ?? null,
    description: fields.description ?? null,
    tag: fields.tag ?? null,
    hwidDeviceLimit: fields.hwidDeviceLimit ?? null,
    externalSquadUuid: fields.externalSquadUuid ?? null,
    trojanPassword: fields.trojanPassword || nanoid(32),
    vlessUuid: fields.vlessUuid || randomUUID(),
    ssPassword: fields.ssPassword || nanoid(32),
    lastTriggeredThreshold: 0,
    subRevokedAt: null,
    lastTrafficResetAt: fields.lastTrafficResetAt ?? null,
    createdAt: fields.createdAt ?? now,
    updatedAt: now,
    activeInternalSquads: [...new Set(fields.activeInternalSquads ?? [])],
    usedTrafficBytes: 0,
    lifetimeUsedTrafficBytes: 0,
    onlineAt: null,
    firstConnectedAt: null,
    lastConnectedNodeUuid: null,
  };
}

/**
 * What the panel's review jobs would have done by now (every 30 s / 45 s upstream): ACTIVE or LIMITED
 * users past `expireAt` become EXPIRED; ACTIVE users with a limit reached become LIMITED.
 */
export function applyReviewJobs(user: RemnawaveUser, now = new Date()): void {
  if ((user.status === 'ACTIVE' || user.status === 'LIMITED') && user.expireAt.getTime() < now.getTime()) user.status = 'EXPIRED';
  if (user.status === 'ACTIVE' && user.trafficLimitBytes !== 0 && user.usedTrafficBytes >= user.trafficLimitBytes) user.status = 'LIMITED';
}

/**
 * UsersService.updateUser: only the given fields change; an EXPIRED user with a new future `expireAt`
 * (and no `status`) becomes ACTIVE, a LIMITED one with a higher (or 0) limit too; `status` DISABLED only
 * disables an ACTIVE user.
 */
export function updateUser(user: RemnawaveUser, body: z.infer<typeof UpdateUserBody>, now = new Date()): void {
  const before = { status: user.status, limit: user.trafficLimitBytes, expireAt: user.expireAt.getTime() };
  if (before.status !== 'ACTIVE' && body.status === 'ACTIVE') user.status = 'ACTIVE';
  if (before.status === 'ACTIVE' && body.status === 'DISABLED') user.status = 'DISABLED';
  if (body.trafficLimitBytes !== undefined) {
    if (before.status === 'LIMITED' && (body.trafficLimitBytes > before.limit || body.trafficLimitBytes === 0)) user.status = 'ACTIVE';
    user.trafficLimitBytes = body.trafficLimitBytes;
    user.lastTriggeredThreshold = 0;
  }
  if (body.expireAt) {
    if (before.status === 'EXPIRED' && !body.status && body.expireAt.getTime() !== before.expireAt && body.expireAt > now) user.status = 'ACTIVE';
    user.expireAt = body.expireAt;
  }
  if (body.trafficLimitStrategy !== undefined) user.trafficLimitStrategy = body.trafficLimitStrategy;
  if (body.description !== undefined) user.description = body.description;
  if (body.tag !== undefined) user.tag = body.tag;
  if (body.telegramId !== undefined) user.telegramId = body.telegramId;
  if (body.email !== undefined) user.email = body.email;
  if (body.hwidDeviceLimit !== undefined) user.hwidDeviceLimit = body.hwidDeviceLimit;
  if (body.externalSquadUuid !== undefined) user.externalSquadUuid = body.externalSquadUuid;
  if (body.activeInternalSquads) user.activeInternalSquads = [...new Set(body.activeInternalSquads)];
  user.updatedAt = now;
}

/** GetFullUserResponseModel, field order included; dates as JSON gives them (ISO, UTC, `Z`). */
export function serializeUser(user: RemnawaveUser, squads: RemnawaveSquad[], subscriptionUrl: string): Record<string, unknown> {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    id: user.id,
    shortUuid: user.shortUuid,
    username: user.username,
    status: user.status,
    trafficLimitBytes: user.trafficLimitBytes,
    trafficLimitStrategy: user.trafficLimitStrategy,
    expireAt: iso(user.expireAt),
    telegramId: user.telegramId,
    email: user.email,
    description: user.description,
    tag: user.tag,
    hwidDeviceLimit: user.hwidDeviceLimit,
    externalSquadUuid: user.externalSquadUuid,
    trojanPassword: user.trojanPassword,
    vlessUuid: user.vlessUuid,
    ssPassword: user.ssPassword,
    lastTriggeredThreshold: user.lastTriggeredThreshold,
    subRevokedAt: iso(user.subRevokedAt),
    lastTrafficResetAt: iso(user.lastTrafficResetAt),
    createdAt: iso(user.createdAt),
    updatedAt: iso(user.updatedAt),
    subscriptionUrl,
    activeInternalSquads: squads.filter((squad) => user.activeInternalSquads.includes(squad.uuid)).map((squad) => ({ uuid: squad.uuid, name: squad.name })),
    userTraffic: {
      usedTrafficBytes: user.usedTrafficBytes,
      lifetimeUsedTrafficBytes: user.lifetimeUsedTrafficBytes,
      onlineAt: iso(user.onlineAt),
      lastConnectedNodeUuid: user.lastConnectedNodeUuid,
      firstConnectedAt: iso(user.firstConnectedAt),
    },
  };
}

/** InternalSquadSchema (inbounds reduced to what a client of the list reads). */
export function serializeSquad(squad: RemnawaveSquad, index: number, users: RemnawaveUser[]): Record<string, unknown> {
  const stamp = new Date(0).toISOString();
  return {
    uuid: squad.uuid,
    viewPosition: index + 1,
    name: squad.name,
    info: { membersCount: users.filter((user) => user.activeInternalSquads.includes(squad.uuid)).length, inboundsCount: squad.hosts.length },
    inbounds: [],
    createdAt: stamp,
    updatedAt: stamp,
  };
}

// ---- subscription ---------------------------------------------------------------------------

/** The hosts of the user's squads, each once, as proxy servers with the user's credentials. */
export function userServers(user: RemnawaveUser, squads: RemnawaveSquad[]): ProxyServer[] {
  return squads
    .filter((squad) => user.activeInternalSquads.includes(squad.uuid))
    .flatMap((squad) => squad.hosts)
    .map((host) => ({
      protocol: host.protocol,
      name: host.remark.replaceAll('{{USERNAME}}', user.username),
      host: host.address,
      port: host.port,
      network: 'tcp' as const,
      tls: true,
      uuid: host.protocol === 'vless' ? user.vlessUuid : undefined,
      password: host.protocol === 'trojan' ? user.trojanPassword : undefined,
    }));
}

/** ResolveProxyConfigService.createFallbackHosts: a VLESS line to 0.0.0.0:1 with the zero UUID per remark. */
export function remarkServers(remarks: string[]): ProxyServer[] {
  return remarks.map((remark) => ({
    protocol: 'vless',
    name: remark,
    host: '0.0.0.0',
    port: 1,
    network: 'tcp',
    tls: false,
    uuid: '00000000-0000-0000-0000-000000000000',
  }));
}

/** resolveEarlyExitRemarks: custom remarks for an inactive user (when shown), for no hosts, else null. */
export function earlyRemarks(user: RemnawaveUser, servers: ProxyServer[], showCustomRemarks: boolean): string[] | null {
  if (showCustomRemarks && user.status !== 'ACTIVE') {
    const byStatus: Partial<Record<RemnawaveStatus, string[]>> = {
      EXPIRED: DEFAULT_CUSTOM_REMARKS.expiredUsers,
      DISABLED: DEFAULT_CUSTOM_REMARKS.disabledUsers,
      LIMITED: DEFAULT_CUSTOM_REMARKS.limitedUsers,
    };
    return byStatus[user.status] ?? [];
  }
  return servers.length === 0 ? DEFAULT_CUSTOM_REMARKS.emptyHosts : null;
}

/** getSubscriptionUserInfo: an `expireAt` in 2099 means "never" and is sent as 0. */
export function subscriptionUserinfo(user: RemnawaveUser): string {
  const expire = user.expireAt.getFullYear() !== 2099 ? Math.floor(user.expireAt.getTime() / 1000) : 0;
  return `upload=0; download=${user.usedTrafficBytes}; total=${user.trafficLimitBytes}; expire=${expire}`;
}

/** SubscriptionRawResponse (the `/info` route, the browser rule and `/api/subscriptions/by-username`). */
export function subscriptionInfo(user: RemnawaveUser, links: string[], subscriptionUrl: string): Record<string, unknown> {
  const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
  return {
    isFound: true,
    user: {
      shortUuid: user.shortUuid,
      daysLeft: Math.floor((user.expireAt.getTime() - Date.now()) / 86_400_000),
      trafficUsed: gib(user.usedTrafficBytes),
      trafficLimit: gib(user.trafficLimitBytes),
      lifetimeTrafficUsed: gib(user.lifetimeUsedTrafficBytes),
      lifetimeTrafficUsedBytes: String(user.lifetimeUsedTrafficBytes),
      trafficLimitBytes: String(user.trafficLimitBytes),
      trafficUsedBytes: String(user.usedTrafficBytes),
      username: user.username,
      expiresAt: user.expireAt.toISOString(),
      isActive: user.status === 'ACTIVE',
      userStatus: user.status,
      trafficLimitStrategy: user.trafficLimitStrategy,
    },
    links,
    ssConfLinks: {},
    subscriptionUrl,
  };
}

/** SubscriptionNotFoundResponse: what every failure of the public routes answers, with a 404. */
export const SUBSCRIPTION_NOT_FOUND = { isFound: false, statusCode: 404, message: 'Resource not found' };
