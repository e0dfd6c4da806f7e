import { JwtSigner, isResponse, readLoginForm } from './auth.js';
import { detail, json, Router, startPanelHttp, text, type PanelRequest, type PanelResponse } from './http.js';
import {
  DEFAULT_GROUPS,
  DEFAULT_HOSTS,
  DEFAULT_HWID,
  DEFAULT_INBOUNDS,
  SubTokens,
  USER_STATUSES,
  checkUserBody,
  effectiveHwid,
  enabledStatus,
  newProxySettings,
  ownScope,
  permissionDenied,
  reviewUser,
  seededRole,
  serializeUser,
  userServers,
  type HwidPolicy,
  type PasarguardGroup,
  type PasarguardHost,
  type PasarguardInbound,
  type PasarguardRole,
  type PasarguardUser,
  type RoleLimits,
} from './pasarguard-model.js';
import { renderSubscription, subscriptionPage, type SubscriptionFormat } from './subscription.js';
import type { LoggedRequest, PanelFaults } from './types.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { BodyCheck, ilikeContains, parseJsonObject, parseQueryBool, readIntQuery, toInt } from './validate.js';

export type { PasarguardGroup, PasarguardHost, PasarguardInbound, PasarguardRole, PasarguardUser } from './pasarguard-model.js';
export { seededRole } from './pasarguard-model.js';

/** ConfigFormat: the client-type path segments of `/sub/{token}/{client_type}` (`block` always answers 406). */
export const CLIENT_TYPES = ['links', 'links_base64', 'xray', 'wireguard', 'sing_box', 'clash', 'clash_meta', 'outline'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export interface PasarguardAdminRecord {
  id: number;
  username: string;
  password: string;
  /** `disabled`: login and every call answer 403; `limited`: the role may only read. */
  status: 'active' | 'limited' | 'disabled';
  role: PasarguardRole;
  permission_overrides: Partial<RoleLimits> | null;
}

/** A one-shot fault: the request is carried out at once (a create saves the user), its answer held back `ms`. */
export interface LateAnswer {
  method: string;
  /** Matched against the start of the request target (path plus query). */
  pathPrefix: string;
  ms: number;
}

/** The shared router, plus `lateAnswers`: the write happens, the client times out before hearing of it. */
class LateRouter extends Router {
  constructor(private readonly late: LateAnswer[]) {
    super();
  }

  override async dispatch(req: Omit<PanelRequest, 'params'>): Promise<PanelResponse> {
    const response = await super.dispatch(req);
    const target = `${req.url.pathname}${req.url.search}`;
    const index = this.late.findIndex((entry) => entry.method === req.method && target.startsWith(entry.pathPrefix));
    if (index !== -1) await sleep(this.late.splice(index, 1)[0]!.ms);
    return response;
  }
}

export interface FakePasarguardOptions {
  admin?: { username?: string; password?: string };
  /** Default 'owner' (the first sudo admin of a panel becomes the owner). */
  role?: 'owner' | 'administrator' | 'operator' | PasarguardRole;
  tokenTtlSeconds?: number;
  /** The subscription settings' `url_prefix` (e.g. `https://sub.example.test`); default '' = relative URLs. */
  subscriptionUrlPrefix?: string;
  groups?: PasarguardGroup[];
  inbounds?: PasarguardInbound[];
  hosts?: PasarguardHost[];
}

/** The handle of the PasarGuard fake: like the other fakes', plus its groups, hosts and settings. */
export interface FakePasarguard {
  url: string;
  /** The logged-in admin; tests may change its role, status or password at run time. */
  admin: PasarguardAdminRecord;
  users: Map<string, PasarguardUser>;
  groups: Map<number, PasarguardGroup>;
  inbounds: PasarguardInbound[];
  hosts: PasarguardHost[];
  /** The global HWID (device limit) settings; default enabled, not forced, no fallback limit. */
  hwid: HwidPolicy;
  /** `manual_sub_request`: client types the `/sub/{token}/{client_type}` route serves (false → 406). */
  manualSubRequest: Record<ClientType, boolean>;
  requests: LoggedRequest[];
  faults: PanelFaults;
  /** One-shot: a matching request is carried out, then answered only after `ms` (a write the client never hears of). */
  lateAnswers: LateAnswer[];
  tokenTtlSeconds: number;
  revokeAllTokens(): void;
  close(): Promise<void>;
}

const BEARER = { 'www-authenticate': 'Bearer' };
const SORTS = ['username', 'used_traffic', 'data_limit', 'expire', 'created_at', 'edit_at', 'online_at'] as const;
type SortKey = (typeof SORTS)[number];

/** The default `subscription.rules` (migration 9af04c077ede, USE_CUSTOM_JSON_* off): first match wins. */
const RULES: Array<[RegExp, ClientType]> = [
  [/^(?:FlClashX?|Flowvy|[Cc]lash(?:-(?:[Vv]erge|nyanpasu)|X [Mm]eta|-?[Mm]eta)|[Kk]oala-[Cc]lash|[Mm](?:urge|ihomo)|prizrak-box|clash\.meta)/, 'clash_meta'],
  [/^([Cc]lash|[Ss]tash)/, 'clash'],
  [/^(SFA|SFI|SFM|SFT|[Kk]aring|[Hh]iddify[Nn]ext)|^.*[Ss]ing[-b]?ox/, 'sing_box'],
  [/^(SS|SSR|SSD|SSS|Outline|Shadowsocks|SSconf)/, 'outline'],
  [/^[Ii]n[Hh]ive/, 'xray'],
  [/^/, 'links_base64'],
];

/** client_config in app/operation/subscription.py (Starlette adds the charset to text/*). */
const CLIENT_CONFIG: Record<ClientType, { format: SubscriptionFormat | 'zip'; contentType: string; extension: string }> = {
  links: { format: 'links', contentType: 'text/plain; charset=utf-8', extension: '.txt' },
  links_base64: { format: 'base64', contentType: 'text/plain; charset=utf-8', extension: '.txt' },
  xray: { format: 'xray', contentType: 'application/json', extension: '.json' },
  wireguard: { format: 'zip', contentType: 'application/zip', extension: '.zip' },
  sing_box: { format: 'sing-box', contentType: 'application/json', extension: '.json' },
  clash: { format: 'clash', contentType: 'text/yaml; charset=utf-8', extension: '.yaml' },
  clash_meta: { format: 'clash-meta', contentType: 'text/yaml; charset=utf-8', extension: '.yaml' },
  outline: { format: 'outline', contentType: 'application/json', extension: '.json' },
};

/** What zipfile writes for a zip without entries (no WireGuard inbounds): the end-of-central-directory record. */
const EMPTY_ZIP = `PK\x05\x06${'\0'.repeat(18)}`;

/**
 * A fake PasarGuard v5.2.1 panel on 127.0.0.1 (read from its source), quirks included:
 * - `POST /api/admin/token` (form) → `{access_token, token_type}`; a missing or bad token → 401
 *   "Could not validate credentials" (never "Not authenticated"); a disabled admin → 403;
 * - roles instead of sudo: a denied action → 403 "Permission denied: users.create"; "own"-scoped roles see
 *   only their users (others' answer 404 "User not found", while their names still collide with 409);
 * - `POST /api/user` → **201**; an unknown group → 404 "Group not found" (which one is not said); a disabled
 *   group is accepted silently (its users get no servers); `group_ids` left out → a user with no group;
 * - `DELETE` → 204 with no body; `PUT …/disabled {"disabled":bool}` recomputes the status when enabling;
 * - `subscription_url` is relative `/sub/<token>` with a new token every second, all valid;
 * - the list leaves `subscription_url` empty unless `load_sub=true`;
 * - subscriptions ignore the user's status (an inactive user gets the same servers unless a host's status
 *   filter says otherwise) and apply the HWID device limit to requests that carry `x-hwid`.
 */
export async function startFakePasarguard(options: FakePasarguardOptions = {}): Promise<FakePasarguard> {
  const signer = new JwtSigner();
  const tokens = new SubTokens();
  const prefix = options.subscriptionUrlPrefix ?? '';
  let nextId = 1;
  const roleOption = options.role ?? 'owner';

  const panel: FakePasarguard = {
    url: '',
    admin: {
      id: 1,
      username: options.admin?.username ?? 'admin',
      password: options.admin?.password ?? 'admin-pass',
      status: 'active',
      role: typeof roleOption === 'string' ? seededRole(roleOption) : roleOption,
      permission_overrides: null,
    },
    users: new Map(),
    groups: new Map(structuredClone(options.groups ?? DEFAULT_GROUPS).map((group) => [group.id, group])),
    inbounds: structuredClone(options.inbounds ?? DEFAULT_INBOUNDS),
    hosts: structuredClone(options.hosts ?? DEFAULT_HOSTS),
    hwid: { ...DEFAULT_HWID },
    manualSubRequest: Object.fromEntries(CLIENT_TYPES.map((type) => [type, true])) as Record<ClientType, boolean>,
    requests: [],
    faults: { down: false, delayMs: 0, failNext: [] },
    lateAnswers: [],
    tokenTtlSeconds: options.tokenTtlSeconds ?? 86400,
    revokeAllTokens: () => signer.rotate(),
    close: async () => {},
  };
  type Admin = PasarguardAdminRecord;

  const subscriptionUrl = (user: PasarguardUser) => `${prefix}/sub/${tokens.issue(user.id)}`;
  const out = (user: PasarguardUser, status = 200): PanelResponse => {
    reviewUser(user);
    return json(status, serializeUser(user, subscriptionUrl(user)));
  };

  function login(req: PanelRequest): PanelResponse {
    const form = readLoginForm(req);
    if (isResponse(form)) return form;
    const { username, password } = form;
    const { admin } = panel;
    if (username !== admin.username || password !== admin.password) return detail(401, 'Incorrect username or password', BEARER);
    if (admin.status === 'disabled') return detail(403, 'your account has been disabled', BEARER);
    const now = Date.now() / 1000;
    const payload: Record<string, unknown> = { sub: username, access: 'admin', iat: Math.floor(now), aid: admin.id };
    if (panel.tokenTtlSeconds > 0) payload.exp = Math.ceil(now + panel.tokenTtlSeconds);
    return json(200, { access_token: signer.sign(payload), token_type: 'bearer' });
  }

  /** get_current + require_permission: the admin behind the bearer token, or the 401 / 403 to answer. */
  const withPermission =
    (resource: string | null, action: string, handler: (req: PanelRequest, admin: Admin) => PanelResponse) =>
    (req: PanelRequest): PanelResponse => {
      const match = /^bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? '').trim());
      const payload = match ? signer.verify(match[1]!.trim()) : null;
      if (!payload || payload.sub !== panel.admin.username || payload.access !== 'admin') {
        return detail(401, 'Could not validate credentials', BEARER);
      }
      if (panel.admin.status === 'disabled') return detail(403, 'your account has been disabled', BEARER);
      const denied = resource ? permissionDenied(panel.admin, resource, action) : null;
      return denied ? detail(403, denied) : handler(req, panel.admin);
    };

  /** get_validated_user: 404 for a missing user and for another admin's user under an "own" scope. */
  const withUser = (action: string, handler: (req: PanelRequest, user: PasarguardUser, admin: Admin) => PanelResponse) =>
    withPermission('users', action, (req, admin) => {
      const user = panel.users.get(req.params.username!);
      if (!user || (ownScope(admin.role, 'users', action) && user.admin.id !== admin.id)) return detail(404, 'User not found');
      return handler(req, user, admin);
    });

  const missingGroup = (ids: number[] | null | undefined) => (ids ?? []).some((id) => !panel.groups.has(id));
  const manualOnly = (admin: Admin) =>
    !admin.role.is_owner && admin.role.access.require_template ? detail(403, 'Manual user create/modify is not allowed for your role') : null;

  /** The role's HWID rules on create (UserOperation.create_user); owners skip them. */
  function hwidLimitProblem(admin: Admin, requested: number | null | undefined): string | null {
    if (admin.role.is_owner) return null;
    const conf = effectiveHwid(panel.hwid, admin.role.hwid);
    const limit = requested ?? (conf?.enabled ? conf.fallback_limit : null);
    const overrides = Object.entries(admin.permission_overrides ?? {}).filter(([, value]) => value !== null);
    const limits: RoleLimits = { ...admin.role.limits, ...Object.fromEntries(overrides) };
    if (limits.max_hwid_per_user != null && (limit === null || limit <= 0)) return `HWID limit cannot be unlimited; maximum is ${limits.max_hwid_per_user}`;
    if (limit !== null && limits.min_hwid_per_user != null && limit < limits.min_hwid_per_user)
      return `HWID limit must be at least ${limits.min_hwid_per_user}`;
    if (limit !== null && limits.max_hwid_per_user != null && limit > limits.max_hwid_per_user) return `HWID limit cannot exceed ${limits.max_hwid_per_user}`;
    if (limit !== null && conf?.min_limit != null && limit < conf.min_limit) return `HWID limit cannot be less than ${conf.min_limit}`;
    if (limit !== null && conf?.max_limit && (limit > conf.max_limit || limit === 0)) return `HWID limit cannot exceed ${conf.max_limit}`;
    return null;
  }

  function createUser(req: PanelRequest, admin: Admin): PanelResponse {
    const body = parseJsonObject(req.body);
    if (isResponse(body)) return body;
    const check = new BodyCheck(body);
    const fields = checkUserBody(check, 'create');
    if (!check.ok || !fields.username) return check.response();
    const refused = manualOnly(admin);
    if (refused) return refused;
    const owned = [...panel.users.values()].filter((u) => u.admin.id === admin.id).length;
    const maxUsers = admin.role.limits.max_users;
    if (!admin.role.is_owner && maxUsers !== null && owned >= maxUsers) return detail(400, `User limit reached (${maxUsers})`);
    const hwidProblem = hwidLimitProblem(admin, fields.hwid_limit);
    if (hwidProblem) return detail(400, hwidProblem);
    if (missingGroup(fields.group_ids)) return detail(404, 'Group not found');
    if (panel.users.has(fields.username)) return detail(409, 'User already exists');

    const user: PasarguardUser = {
      id: nextId++,
      username: fields.username,
      proxy_settings: newProxySettings(),
      expire: fields.expire || null,
      data_limit: fields.data_limit ?? null,
      data_limit_reset_strategy: fields.data_limit_reset_strategy ?? 'no_reset',
      status: fields.status ?? 'active',
      used_traffic: 0,
      reseted_usage: 0,
      note: fields.note ?? null,
      on_hold_expire_duration: fields.on_hold_expire_duration ?? null,
      on_hold_timeout: fields.on_hold_timeout ?? null,
      group_ids: [...new Set(fields.group_ids ?? [])],
      auto_delete_in_days: fields.auto_delete_in_days ?? null,
      hwid_limit: fields.hwid_limit ?? null,
      next_plan: fields.next_plan ?? null,
      created_at: new Date(),
      edit_at: null,
      online_at: null,
      sub_revoked_at: null,
      admin: { id: admin.id, username: admin.username },
      hwids: [],
    };
    panel.users.set(user.username, user);
    return out(user, 201);
  }

  /** crud.modify_user: only the fields sent change; expire / data_limit move the status; no next_plan deletes it. */
  function modifyUser(req: PanelRequest, user: PasarguardUser, admin: Admin): PanelResponse {
    const body = parseJsonObject(req.body);
    if (isResponse(body)) return body;
    const check = new BodyCheck(body);
    const fields = checkUserBody(check, 'modify');
    if (!check.ok) return check.response();
    const refused = manualOnly(admin);
    if (refused) return refused;
    if (fields.group_ids) {
      if (missingGroup(fields.group_ids)) return detail(404, 'Group not found');
      user.group_ids = [...new Set(fields.group_ids)];
    }
    const now = Date.now();
    if (fields.status) user.status = fields.status === 'active' && user.status === 'disabled' ? enabledStatus(user, now) : fields.status;
    if (fields.status === 'on_hold') {
      user.expire = null;
    } else if (fields.expire === 0) {
      user.expire = null;
      if (user.status === 'expired') user.status = 'active';
    } else if (fields.expire) {
      user.expire = fields.expire;
      if (user.status === 'active' || user.status === 'expired') user.status = fields.expire.getTime() > now ? 'active' : 'expired';
    }
    if (fields.data_limit !== undefined && fields.data_limit !== null) {
      user.data_limit = fields.data_limit || null;
      if (user.status !== 'expired' && user.status !== 'disabled') {
        if (!user.data_limit || user.used_traffic < user.data_limit) {
          if (user.status !== 'on_hold') user.status = 'active';
        } else {
          user.status = 'limited';
        }
      }
    }
    if (fields.note !== undefined && fields.note !== null) user.note = fields.note || null;
    if (fields.data_limit_reset_strategy) user.data_limit_reset_strategy = fields.data_limit_reset_strategy;
    if (fields.on_hold_timeout !== undefined && fields.on_hold_timeout !== null) user.on_hold_timeout = fields.on_hold_timeout;
    if (fields.on_hold_expire_duration !== undefined && fields.on_hold_expire_duration !== null) user.on_hold_expire_duration = fields.on_hold_expire_duration;
    if (fields.hwidLimitSent) user.hwid_limit = fields.hwid_limit ?? null;
    user.next_plan = fields.next_plan ?? null;
    user.edit_at = new Date(now);
    return out(user);
  }

  function setDisabled(req: PanelRequest, user: PasarguardUser): PanelResponse {
    const body = parseJsonObject(req.body);
    if (isResponse(body)) return body;
    const check = new BodyCheck(body);
    const disabled = check.bool('disabled', { required: true, nullable: false });
    if (!check.ok || disabled === undefined || disabled === null) return check.response();
    user.status = disabled ? 'disabled' : enabledStatus(user);
    return out(user);
  }

  function listUsers(req: PanelRequest, admin: Admin): PanelResponse {
    const errors: Record<string, string> = {};
    const offset = readIntQuery(req.query, 'offset', errors);
    const limit = readIntQuery(req.query, 'limit', errors);
    const rawLoadSub = req.query.get('load_sub');
    const loadSub = rawLoadSub === null ? false : parseQueryBool(rawLoadSub);
    if (loadSub === undefined) errors.load_sub = 'Input should be a valid boolean, unable to interpret input';
    if (Object.keys(errors).length) return detail(422, errors);
    // UserListQuery is built inside the dependency: its validation errors answer 400 with the first message.
    const sorts = req.query
      .getAll('sort')
      .flatMap((value) => value.replace(/^,+|,+$/g, '').split(','))
      .filter(Boolean);
    const badSort = sorts.find((option) => !(SORTS as readonly string[]).includes(option.replace(/^-/, '')));
    if (badSort !== undefined) return detail(400, `Value error, '${badSort}' is not a valid UserSortOption`);
    const statuses = req.query.getAll('status');
    const badStatus = statuses.find((s) => !(USER_STATUSES as readonly string[]).includes(s));
    if (badStatus !== undefined) return detail(400, "Input should be 'active', 'disabled', 'limited', 'expired' or 'on_hold'");

    let users = [...panel.users.values()];
    users.forEach((user) => reviewUser(user));
    if (ownScope(admin.role, 'users', 'read_simple')) users = users.filter((u) => u.admin.id === admin.id);
    const names = req.query.getAll('username');
    if (names.length) users = users.filter((u) => names.includes(u.username));
    const search = req.query.get('search');
    if (search) users = users.filter((u) => ilikeContains(u.username, search) || ilikeContains(u.note ?? '', search));
    if (statuses.length) users = users.filter((u) => statuses.includes(u.status));
    users.sort((a, b) => a.id - b.id);
    for (const option of [...sorts].reverse()) {
      const key = option.replace(/^-/, '') as SortKey;
      const sign = option.startsWith('-') ? -1 : 1;
      const value = (u: PasarguardUser): string | number => {
        const v = u[key];
        return v instanceof Date ? v.getTime() : (v ?? -Infinity);
      };
      users.sort((a, b) => (value(a) < value(b) ? -sign : value(a) > value(b) ? sign : 0));
    }
    const total = users.length;
    // `if query.offset:` / `if query.limit:` — 0 means none, so limit=0 lists everyone.
    const page = users.slice(offset || 0, limit ? (offset || 0) + limit : undefined);
    return json(200, { users: page.map((user) => serializeUser(user, loadSub ? subscriptionUrl(user) : '')), total });
  }

  /** Groups this admin may see (role.access.allowed_group_ids; null = all). */
  function visibleGroups(admin: Admin, req: PanelRequest): PasarguardGroup[] {
    const allowed = admin.role.is_owner ? null : admin.role.access.allowed_group_ids;
    const ids = req.query.getAll('ids').map(Number);
    return [...panel.groups.values()]
      .filter((group) => !allowed?.length || allowed.includes(group.id))
      .filter((group) => ids.length === 0 || ids.includes(group.id))
      .sort((a, b) => a.id - b.id);
  }

  const groupOut = (group: PasarguardGroup) => ({
    name: group.name,
    inbound_tags: [...group.inbound_tags],
    is_disabled: group.is_disabled,
    id: group.id,
    total_users: [...panel.users.values()].filter((u) => u.group_ids.includes(group.id)).length,
  });

  function adminDetails(admin: Admin): Record<string, unknown> {
    const owned = [...panel.users.values()].filter((u) => u.admin.id === admin.id);
    return {
      id: admin.id,
      username: admin.username,
      telegram_id: null,
      discord_webhook: null,
      sub_domain: null,
      profile_title: null,
      support_url: null,
      custom_variables: [],
      notification_enable: null,
      total_users: owned.length,
      used_traffic: 0,
      data_limit: null,
      status: admin.status,
      sub_template: null,
      lifetime_used_traffic: 0,
      note: null,
      role: structuredClone(admin.role),
      permission_overrides: admin.permission_overrides,
      is_disabled: admin.status === 'disabled',
      is_limited: admin.status === 'limited',
    };
  }

  // ---- subscription ----

  /** get_validated_sub: a valid token of an existing user, issued after its creation and after any revoke. */
  const withSubUser = (handler: (req: PanelRequest, user: PasarguardUser) => PanelResponse) => (req: PanelRequest) => {
    const token = tokens.read(req.params.token!);
    const user = token ? [...panel.users.values()].find((u) => u.id === token.userId) : undefined;
    if (!token || !user || user.created_at.getTime() > token.createdMs || (user.sub_revoked_at && user.sub_revoked_at.getTime() > token.createdMs)) {
      return detail(404, 'Not Found');
    }
    reviewUser(user);
    return handler(req, user);
  };

  /** validate_and_register_hwid (v5.1+): `hwid_limit: 0` opts the user out; the limit counts distinct `x-hwid`s. */
  function checkDevice(req: PanelRequest, user: PasarguardUser, manual: boolean): PanelResponse | null {
    const conf = effectiveHwid(panel.hwid, panel.admin.role.hwid);
    if (!conf || !conf.enabled || user.hwid_limit === 0) return null;
    const forced = conf.forced && (!manual || panel.hwid.require_hwid_for_manual_sub);
    const limit = user.hwid_limit ?? conf.fallback_limit;
    const hwid = req.headers['x-hwid'];
    if (typeof hwid !== 'string' || hwid === '') return forced ? detail(403, 'HWID header required') : null;
    if (user.hwids.includes(hwid)) return null;
    if (limit !== null && limit > 0 && user.hwids.length >= limit) return detail(403, 'Device limit reached');
    user.hwids.push(hwid);
    return null;
  }

  function subscriptionHeaders(req: PanelRequest, user: PasarguardUser, extension: string): Record<string, string> {
    const b64 = (value: string) => Buffer.from(value).toString('base64');
    return {
      'content-disposition': `attachment; filename="${user.username}${extension}"`,
      'profile-web-page-url': req.url.toString(),
      'support-url': 'https://t.me/',
      'profile-title': `base64:${b64('Subscription')}`,
      'profile-update-interval': '12',
      'subscription-userinfo': `upload=0; download=${user.used_traffic}; total=${user.data_limit || 0}; expire=${user.expire ? Math.floor(user.expire.getTime() / 1000) : 0}`,
      announce: 'base64:',
      'announce-url': '',
    };
  }

  function render(req: PanelRequest, user: PasarguardUser, type: ClientType, extension: string): PanelResponse {
    const config = CLIENT_CONFIG[type];
    const headers = subscriptionHeaders(req, user, extension);
    if (config.format === 'zip') return text(200, EMPTY_ZIP, config.contentType, headers);
    const servers = userServers(user, panel.groups, panel.inbounds, panel.hosts);
    return text(200, renderSubscription(config.format, servers).body, config.contentType, headers);
  }

  function subscriptionByUserAgent(req: PanelRequest, user: PasarguardUser): PanelResponse {
    if (String(req.headers.accept ?? '').includes('text/html')) {
      return subscriptionPage(user.username, user.status, userServers(user, panel.groups, panel.inbounds, panel.hosts));
    }
    const refused = checkDevice(req, user, false);
    if (refused) return refused;
    const userAgent = String(req.headers['user-agent'] ?? '');
    const type = RULES.find(([pattern]) => pattern.test(userAgent))?.[1];
    if (!type) return detail(406, 'Client not supported');
    return render(req, user, type, '');
  }

  function subscriptionInfo(user: PasarguardUser, req: PanelRequest): PanelResponse {
    const { admin: _admin, note: _note, auto_delete_in_days: _auto, subscription_url: _url, ...info } = serializeUser(user, '');
    return json(200, { ...info, ip: req.headers['x-forwarded-for'] ?? '127.0.0.1' }, { 'support-url': 'https://t.me/' });
  }

  function subscriptionByClientType(req: PanelRequest): PanelResponse {
    const type = req.params.client_type!;
    if (type !== 'block' && !(CLIENT_TYPES as readonly string[]).includes(type)) {
      return detail(422, {
        client_type: "Input should be 'links', 'links_base64', 'xray', 'wireguard', 'sing_box', 'clash', 'clash_meta', 'outline' or 'block'",
      });
    }
    if (type === 'block' || !panel.manualSubRequest[type as ClientType]) return detail(406, 'Client not supported');
    return withSubUser((_req, user) => checkDevice(req, user, true) ?? render(req, user, type as ClientType, CLIENT_CONFIG[type as ClientType].extension))(req);
  }

  const router = new LateRouter(panel.lateAnswers)
    .post('/api/admin/token', login)
    .get(
      '/api/admin',
      withPermission(null, '', (_req, admin) => json(200, adminDetails(admin))),
    )
    .get(
      '/api/groups',
      withPermission('groups', 'read', (req, admin) => {
        const groups = visibleGroups(admin, req);
        return json(200, { groups: groups.map(groupOut), total: groups.length });
      }),
    )
    .get(
      '/api/groups/simple',
      withPermission('groups', 'read_simple', (req, admin) => {
        const groups = visibleGroups(admin, req);
        return json(200, { groups: groups.map(({ id, name }) => ({ id, name })), total: groups.length });
      }),
    )
    .get(
      '/api/group/:id',
      withPermission('groups', 'read', (req, admin) => {
        const id = toInt(req.params.id);
        if (typeof id === 'string') return detail(422, { group_id: id });
        const group = visibleGroups(admin, { ...req, query: new URLSearchParams() }).find((g) => g.id === id);
        return group ? json(200, groupOut(group)) : detail(404, 'Group not found');
      }),
    )
    .post('/api/user', withPermission('users', 'create', createUser))
    .get(
      '/api/user/:username',
      withUser('read', (_req, user) => out(user)),
    )
    .put('/api/user/:username', withUser('update', modifyUser))
    .put('/api/user/:username/disabled', withUser('update', setDisabled))
    .delete(
      '/api/user/:username',
      withUser('delete', (_req, user) => {
        panel.users.delete(user.username);
        // status_code=204: FastAPI drops the `{}` body but keeps JSONResponse's content-type.
        return { status: 204, body: '', contentType: 'application/json' };
      }),
    )
    .post(
      '/api/user/:username/reset',
      withUser('reset_usage', (_req, user) => {
        user.reseted_usage += user.used_traffic;
        user.used_traffic = 0;
        user.next_plan = null;
        if (user.status === 'limited') user.status = 'active';
        return out(user);
      }),
    )
    .get('/api/users', withPermission('users', 'read', listUsers))
    .get('/sub/:token', withSubUser(subscriptionByUserAgent))
    .get('/sub/:token/', withSubUser(subscriptionByUserAgent))
    .get(
      '/sub/:token/info',
      withSubUser((req, user) => subscriptionInfo(user, req)),
    )
    .get('/sub/:token/:client_type', subscriptionByClientType);

  const http = await startPanelHttp(panel, router);
  panel.url = http.url;
  panel.close = http.close;
  return panel;
}
