import { AdminAuth, isResponse, type AuthenticatedAdmin } from './auth.js';
import { detail, json, Router, startPanelHttp, type PanelRequest, type PanelResponse } from './http.js';
import {
  DEFAULT_INBOUNDS,
  DEFAULT_NODES,
  DEFAULT_SERVICES,
  checkUserBody,
  newKey,
  refreshUser,
  serializeUser,
  userFlags,
  userServers,
  type MarzneshinInbound,
  type MarzneshinNode,
  type MarzneshinService,
  type MarzneshinUser,
} from './marzneshin-model.js';
import { paginate, readPageParams } from './pagination.js';
import {
  COMMON_RULES,
  formatForUserAgent,
  placeholderServer,
  subscriptionPage,
  subscriptionResponse,
  wantsHtml,
  type SubscriptionFormat,
  type UserAgentRule,
} from './subscription.js';
import type { FakePanel, FakePanelOptions, FakeUser } from './types.js';
import { BodyCheck, ilikeContains, parseJsonObject, parseQueryBool, unixSeconds } from './validate.js';

export type { MarzneshinUser } from './marzneshin-model.js';
export { marzneshinStatus } from './marzneshin-model.js';

export interface FakeMarzneshinOptions extends FakePanelOptions {
  services?: MarzneshinService[];
  inbounds?: MarzneshinInbound[];
  nodes?: MarzneshinNode[];
  /** Port to listen on (127.0.0.1); default 0 = a free port. Starting rejects when it is taken. */
  port?: number;
  /** A non-sudo admin's own services (`service_ids`); default every service. */
  adminServiceIds?: number[];
  /** The admin's `all_services_access`: every service, whatever `service_ids` says. Default false. */
  allServicesAccess?: boolean;
  /** The admin's `modify_users_access`: false → a non-sudo admin gets 403 on every change to a user. Default true. */
  modifyUsersAccess?: boolean;
}

/** The same handle type as the Marzban fake; the users are MarzneshinUser (see `asMarzneshinUser`). */
export type FakeMarzneshin = FakePanel;

/** A user of the Marzneshin fake, typed (throws for anything else). */
export function asMarzneshinUser(user: FakeUser | undefined): MarzneshinUser {
  if (!user || !('expire_strategy' in user)) throw new Error('not a Marzneshin user');
  return user;
}

/** Marzneshin's default subscription rules (clients.md's anchored rules, then xray JSON for new v2rayN/v2rayNG). */
const RULES: UserAgentRule[] = [
  ...COMMON_RULES,
  [/^v2rayN\/(?:6\.(?:[5-9]\d+|4[1-9])|[7-9]\d*\.\d+)/, 'xray'],
  [/^v2rayNG\/([2-9]|1\.(9|\d{2,})|1\.8\.(1[7-9]|[2-9]\d|\d{3,}))/, 'xray'],
  [/^[Ss]treisand/, 'xray'],
];

const CLIENT_TYPES: Record<string, SubscriptionFormat> = {
  links: 'links',
  v2ray: 'base64',
  'sing-box': 'sing-box',
  'clash-meta': 'clash-meta',
  clash: 'clash',
  xray: 'xray',
  wireguard: 'wireguard',
};

/**
 * A fake Marzneshin panel (commit d3b25e2) on 127.0.0.1 that reproduces panels.md, quirks included:
 * - `POST /api/admins/token` (form) → `{access_token, is_sudo, token_type}`; HS256 JWTs with `exp`;
 * - usernames lower-cased then `^\w{3,32}$`; `expire_strategy` required; unknown `service_ids` dropped;
 * - naive UTC datetimes; relative `subscription_url` `/sub/{username}/{key}`; no `status` / `links` fields;
 * - the PUT bug: 500 text/plain unless the body has `expire_strategy` or `usage_duration` (e.g. null);
 * - a non-sudo admin (`options.sudo: false`) gets 403 "You're not allowed" for users it does not own, missing ones too;
 *   unless it has `all_services_access` it sees only its own services, and the `service_ids` it sends are
 *   silently cut to them (a user with no service, and a 200); without `modify_users_access` it may not change users;
 * - `/sub/{username}/{key}` picks the format from the User-Agent; an inactive user gets the `disabled` vmess placeholder.
 * Flags (`expired`, `data_limit_reached`, `is_active`) are derived from the stored user on every read.
 */
export async function startFakeMarzneshin(options: FakeMarzneshinOptions = {}): Promise<FakeMarzneshin> {
  const sudo = options.sudo ?? true;
  const prefix = options.subscriptionUrlPrefix ?? '';
  const sub = {
    profileTitle: options.profileTitle ?? 'Support',
    supportUrl: options.supportUrl ?? 't.me/support',
    updateIntervalHours: options.updateIntervalHours ?? 12,
  };
  let nextId = 1;

  const panel: FakeMarzneshin = {
    url: '',
    admin: { username: options.admin?.username ?? 'admin', password: options.admin?.password ?? 'admin-pass' },
    users: new Map(),
    requests: [],
    faults: { down: false, delayMs: 0, failNext: [] },
    tokenTtlSeconds: options.tokenTtlSeconds ?? 86400,
    revokeAllTokens: () => auth.signer.rotate(),
    close: async () => {},
  };
  const config = {
    services: structuredClone(options.services ?? DEFAULT_SERVICES),
    inbounds: structuredClone(options.inbounds ?? DEFAULT_INBOUNDS),
    nodes: structuredClone(options.nodes ?? DEFAULT_NODES),
  };
  const allUsers = (): MarzneshinUser[] => [...panel.users.values()].map(asMarzneshinUser);
  const getUser = (username: string): MarzneshinUser | undefined => {
    const user = panel.users.get(username);
    return user && asMarzneshinUser(user);
  };
  const auth = new AdminAuth(panel, sudo);
  const out = (user: MarzneshinUser): PanelResponse => json(200, serializeUser(user, prefix));
  const knownServiceIds = (ids: number[]): number[] => [...new Set(ids)].filter((id) => config.services.some((s) => s.id === id));
  const adminServiceIds = (): number[] => options.adminServiceIds ?? config.services.map((s) => s.id);
  /** The services this admin may use: all for a sudo admin or one with all_services_access, else its own. */
  const mayUseService = (admin: AuthenticatedAdmin, id: number): boolean =>
    admin.isSudo || options.allServicesAccess === true || adminServiceIds().includes(id);
  /** Unknown ids and those the admin may not use are dropped without a word (upstream's crud.create_user / update_user). */
  const assignableServiceIds = (admin: AuthenticatedAdmin, ids: number[]): number[] => knownServiceIds(ids).filter((id) => mayUseService(admin, id));

  /** AdminDep: 401 unless a valid token. */
  const withAdmin = (handler: (req: PanelRequest, admin: AuthenticatedAdmin) => PanelResponse | Promise<PanelResponse>) => (req: PanelRequest) => {
    const admin = auth.authenticate(req);
    return isResponse(admin) ? admin : handler(req, admin);
  };

  /**
   * UserDep: 403 for a non-sudo admin unless it owns the user (even when there is no such user), then 404.
   * `modifies`: also ModifyUsersAccess, 403 for a non-sudo admin without `modify_users_access`.
   */
  const withUser = (handler: (req: PanelRequest, user: MarzneshinUser, admin: AuthenticatedAdmin) => PanelResponse | Promise<PanelResponse>, modifies = true) =>
    withAdmin((req, admin) => {
      if (modifies && !admin.isSudo && options.modifyUsersAccess === false) return detail(403, "You're not allowed");
      const user = getUser(req.params.username!);
      if (!admin.isSudo && !(user && user.owner_username === admin.username)) return detail(403, "You're not allowed");
      if (!user) return detail(404, 'User not found');
      refreshUser(user);
      return handler(req, user, admin);
    });

  /** SubUserDep: the key must be hex and match, otherwise a bare 404. */
  const withSubUser = (handler: (req: PanelRequest, user: MarzneshinUser) => PanelResponse) => (req: PanelRequest) => {
    const user = getUser(req.params.username!);
    if (!/^[0-9a-f]+$/i.test(req.params.key!) || !user || user.key !== req.params.key) return detail(404, 'Not Found');
    refreshUser(user);
    return handler(req, user);
  };

  const router = new Router()
    .post('/api/admins/token', (req) => {
      const result = auth.login(req);
      if (isResponse(result)) return result;
      return json(200, { access_token: result.token, is_sudo: result.isSudo, token_type: 'bearer' });
    })
    .get(
      '/api/admins/current',
      withAdmin((_req, admin) =>
        json(200, {
          id: 1,
          username: admin.username,
          is_sudo: admin.isSudo,
          enabled: true,
          all_services_access: options.allServicesAccess ?? false,
          modify_users_access: options.modifyUsersAccess ?? true,
          service_ids: admin.isSudo ? [] : adminServiceIds(),
          subscription_url_prefix: prefix,
        }),
      ),
    )
    .get('/api/users', withAdmin(listUsers))
    .post('/api/users', withAdmin(createUser))
    .get(
      '/api/users/:username',
      withUser((_req, user) => out(user), false),
    )
    .put('/api/users/:username', withUser(modifyUser))
    .delete(
      '/api/users/:username',
      withUser((_req, user) => {
        panel.users.delete(user.username);
        return json(200, {});
      }),
    )
    .post(
      '/api/users/:username/enable',
      withUser((_req, user) => {
        if (user.enabled) return detail(409, 'User is already enabled');
        user.enabled = true;
        return out(user);
      }),
    )
    .post(
      '/api/users/:username/disable',
      withUser((_req, user) => {
        if (!user.enabled) return detail(409, 'User is not enabled');
        user.enabled = false;
        return out(user);
      }),
    )
    .post(
      '/api/users/:username/reset',
      withUser((_req, user) => {
        user.used_traffic = 0;
        user.traffic_reset_at = new Date();
        return out(user);
      }),
    )
    .post(
      '/api/users/:username/revoke_sub',
      withUser((_req, user) => {
        user.key = newKey();
        user.sub_revoked_at = new Date();
        return out(user);
      }),
    )
    .get(
      '/api/services',
      withAdmin((req, admin) => {
        const params = readPageParams(req);
        if (isResponse(params)) return params;
        const items = config.services
          .filter((s) => mayUseService(admin, s.id))
          .map((s) => ({
            id: s.id,
            name: s.name,
            inbound_ids: [...s.inbound_ids],
            user_ids: allUsers()
              .filter((u) => u.service_ids.includes(s.id))
              .map((u) => u.id),
          }));
        return json(200, paginate(req, items, params));
      }),
    )
    .get(
      '/api/nodes',
      withAdmin((req, admin) => {
        if (!admin.isSudo) return detail(403, 'Access Denied');
        const params = readPageParams(req);
        if (isResponse(params)) return params;
        return json(
          200,
          paginate(
            req,
            config.nodes.map((n) => ({ ...n, connection_backend: 'grpclib', usage_coefficient: 1 })),
            params,
          ),
        );
      }),
    )
    .get('/sub/:username/:key', withSubUser(subscription))
    .get(
      '/sub/:username/:key/info',
      withSubUser((_req, user) => out(user)),
    )
    .get(
      '/sub/:username/:key/usage',
      withSubUser((_req, user) =>
        json(200, {
          usages: { username: user.username, node_usages: [], total: user.used_traffic },
          username: user.username,
        }),
      ),
    )
    .get(
      '/sub/:username/:key/:client_type',
      withSubUser((req, user) => {
        const format = CLIENT_TYPES[req.params.client_type!];
        if (!format) {
          return detail(422, { client_type: `String should match pattern '${Object.keys(CLIENT_TYPES).join('|')}'` });
        }
        return subscriptionResponse(format, servers(user), meta(req, user));
      }),
    );

  function listUsers(req: PanelRequest, admin: AuthenticatedAdmin): PanelResponse {
    const params = readPageParams(req);
    if (isResponse(params)) return params;
    let users = allUsers();
    users.forEach(refreshUser);
    const names = req.query.getAll('username');
    if (names.length > 1) users = users.filter((u) => names.includes(u.username));
    else if (names.length === 1) users = users.filter((u) => ilikeContains(u.username, names[0]!));
    for (const flag of ['is_active', 'activated', 'expired', 'data_limit_reached', 'enabled'] as const) {
      const raw = req.query.get(flag);
      if (raw === null) continue;
      const want = parseQueryBool(raw);
      if (want === undefined) return detail(422, { [flag]: 'Input should be a valid boolean, unable to interpret input' });
      users = users.filter((u) => {
        const flags = userFlags(u);
        const value = flag === 'enabled' ? u.enabled : flag === 'activated' ? flags.is_active : flags[flag];
        return value === want;
      });
    }
    const owner = req.query.get('owner_username');
    if (owner !== null) {
      if (!admin.isSudo) return detail(403, "You're not allowed.");
      if (owner !== panel.admin.username && !allUsers().some((u) => u.owner_username === owner)) {
        return detail(404, 'owner_username not found.');
      }
      users = users.filter((u) => u.owner_username === owner);
    }
    if (!admin.isSudo) users = users.filter((u) => u.owner_username === admin.username);
    return json(
      200,
      paginate(
        req,
        users.sort((a, b) => a.id - b.id).map((u) => serializeUser(u, prefix)),
        params,
      ),
    );
  }

  function createUser(req: PanelRequest, admin: AuthenticatedAdmin): PanelResponse {
    const body = parseJsonObject(req.body);
    if (isResponse(body)) return body;
    const check = new BodyCheck(body);
    const fields = checkUserBody(check, 'create');
    if (!fields) return check.response();
    if (panel.users.has(fields.username)) return detail(409, 'User already exists');
    const user: MarzneshinUser = {
      id: nextId++,
      username: fields.username,
      expire_strategy: fields.expire_strategy ?? 'never',
      expire_date: fields.expire_date,
      usage_duration: fields.usage_duration,
      activation_deadline: fields.activation_deadline,
      key: fields.key ?? newKey(),
      data_limit: fields.data_limit || null,
      data_limit_reset_strategy: fields.data_limit_reset_strategy ?? 'no_reset',
      note: fields.note,
      sub_updated_at: null,
      sub_last_user_agent: null,
      online_at: null,
      enabled: true,
      used_traffic: 0,
      lifetime_used_traffic: 0,
      sub_revoked_at: null,
      created_at: new Date(),
      service_ids: assignableServiceIds(admin, fields.service_ids ?? []),
      owner_username: admin.username,
      traffic_reset_at: null,
    };
    panel.users.set(user.username, user);
    return out(user);
  }

  function modifyUser(req: PanelRequest, user: MarzneshinUser, admin: AuthenticatedAdmin): PanelResponse {
    const body = parseJsonObject(req.body);
    if (isResponse(body)) return body;
    const check = new BodyCheck(body);
    const fields = checkUserBody(check, 'modify');
    if (!fields) return check.response();
    // The upstream bug: without an expire_strategy, usage_duration defaults to a tuple and the update crashes.
    if (!fields.expire_strategy && !check.has('usage_duration')) throw new Error('usage_duration is a tuple');
    if (fields.expire_strategy) {
      user.expire_strategy = fields.expire_strategy;
      user.expire_date = fields.expire_date;
      user.usage_duration = fields.usage_duration;
      user.activation_deadline = fields.activation_deadline;
    }
    if (fields.data_limit !== null) user.data_limit = fields.data_limit || null;
    if (fields.data_limit_reset_strategy !== null) user.data_limit_reset_strategy = fields.data_limit_reset_strategy;
    if (fields.note !== null) user.note = fields.note;
    if (fields.service_ids !== null) user.service_ids = assignableServiceIds(admin, fields.service_ids);
    return out(user);
  }

  function servers(user: MarzneshinUser) {
    return userFlags(user).is_active ? userServers(user, config.services, config.inbounds) : [placeholderServer('disabled')];
  }

  function meta(req: PanelRequest, user: MarzneshinUser) {
    return {
      username: user.username,
      usedBytes: user.used_traffic,
      limitBytes: user.data_limit,
      expireUnix: user.expire_strategy === 'fixed_date' ? unixSeconds(user.expire_date) : 0,
      ...sub,
      pageUrl: req.url.toString(),
    };
  }

  function subscription(req: PanelRequest, user: MarzneshinUser): PanelResponse {
    if (wantsHtml(req.headers.accept)) {
      return subscriptionPage(user.username, userFlags(user).is_active ? 'active' : 'inactive', servers(user));
    }
    const userAgent = req.headers['user-agent'] ?? '';
    user.sub_updated_at = new Date();
    user.sub_last_user_agent = userAgent;
    return subscriptionResponse(formatForUserAgent(userAgent, RULES), servers(user), meta(req, user));
  }

  const http = await startPanelHttp(panel, router, options.port);
  panel.url = http.url;
  panel.close = http.close;
  return panel;
}
