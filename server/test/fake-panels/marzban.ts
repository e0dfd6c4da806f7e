import { AdminAuth, isResponse, type AuthenticatedAdmin } from './auth.js';
import { detail, json, Router, startPanelHttp, type PanelRequest, type PanelResponse } from './http.js';
import {
  DEFAULT_INBOUNDS,
  PROTOCOLS,
  STATUSES,
  SubTokens,
  checkMarzbanBody,
  proxySettings,
  reviewUser,
  serializeUser,
  userServers,
  type MarzbanInbound,
  type MarzbanUser,
  type Protocol,
} from './marzban-model.js';
import {
  COMMON_RULES,
  formatForUserAgent,
  subscriptionPage,
  subscriptionResponse,
  wantsHtml,
  type SubscriptionFormat,
  type UserAgentRule,
} from './subscription.js';
import type { FakePanel, FakePanelOptions, FakeUser } from './types.js';
import { BodyCheck, ilikeContains, parseJsonObject, readIntQuery } from './validate.js';

export type { MarzbanInbound, MarzbanUser, Protocol as MarzbanProtocol } from './marzban-model.js';

export interface FakeMarzbanOptions extends FakePanelOptions {
  /** Protocols with inbounds on this panel; the others answer 400 "Protocol ProxyTypes.X is disabled". Default all four. */
  protocols?: Protocol[];
  /** The panel's inbounds (those of disabled protocols are dropped). */
  inbounds?: MarzbanInbound[];
}

/** The same handle type as the Marzneshin fake; the users are MarzbanUser (see `asMarzbanUser`). */
export type FakeMarzban = FakePanel;

/** A user of the Marzban fake, typed (throws for anything else). */
export function asMarzbanUser(user: FakeUser | undefined): MarzbanUser {
  if (!user || !('proxies' in user)) throw new Error('not a Marzban user');
  return user;
}

/** Marzban v0.8.4's User-Agent rules (the USE_CUSTOM_JSON_* settings off). */
const RULES: UserAgentRule[] = [...COMMON_RULES, [/^(SS|SSR|SSD|SSS|Outline|Shadowsocks|SSconf)/, 'outline']];

const CLIENT_TYPES: Record<string, SubscriptionFormat> = {
  'sing-box': 'sing-box',
  'clash-meta': 'clash-meta',
  clash: 'clash',
  outline: 'outline',
  v2ray: 'base64',
  'v2ray-json': 'xray',
};

const SORTS = ['username', 'used_traffic', 'data_limit', 'expire', 'created_at'] as const;

/**
 * A fake Marzban v0.8.4 panel on 127.0.0.1 that reproduces panels.md, quirks included:
 * - `POST /api/admin/token` (form) → `{access_token, token_type}`; HS256 JWTs with `exp`;
 * - `POST /api/user` without `proxies` saves the user and answers 500 text/plain, and every later read of
 *   that user (GET, PUT without proxies, reset, revoke_sub, list, subscription) answers 500 too — DELETE works;
 *   without `inbounds` the user is excluded from every inbound (`links: []`);
 * - a protocol without inbounds (see `options.protocols`) → 400 `Protocol ProxyTypes.VLESS is disabled on your server`;
 * - a PUT's `proxies` replaces the user's (a proxy sent as `{}` gets new credentials, one left out is deleted) and its
 *   `inbounds` changes the protocols it names only; an unknown tag → 422 `Inbound X doesn't exist`;
 * - `subscription_url` is `/sub/<token>` with a new token on every read, all valid until `revoke_sub`;
 * - `status` is stored and reviewed on every read like the panel's job (active → limited/expired, on_hold → active).
 */
export async function startFakeMarzban(options: FakeMarzbanOptions = {}): Promise<FakeMarzban> {
  const sudo = options.sudo ?? true;
  const prefix = options.subscriptionUrlPrefix ?? '';
  const protocols = options.protocols ?? [...PROTOCOLS];
  const sub = {
    profileTitle: options.profileTitle ?? 'Subscription',
    supportUrl: options.supportUrl ?? 'https://t.me/',
    updateIntervalHours: options.updateIntervalHours ?? 12,
  };
  const tokens = new SubTokens();
  let nextId = 1;

  const panel: FakeMarzban = {
    url: '',
    admin: { username: options.admin?.username ?? 'admin', password: options.admin?.password ?? 'admin-pass' },
    users: new Map(),
    requests: [],
    faults: { down: false, delayMs: 0, failNext: [] },
    tokenTtlSeconds: options.tokenTtlSeconds ?? 86400,
    revokeAllTokens: () => auth.signer.rotate(),
    close: async () => {},
  };
  const inbounds = structuredClone(options.inbounds ?? DEFAULT_INBOUNDS).filter((i) => protocols.includes(i.protocol));
  const subscriptionUrl = (username: string): string => `${prefix}/sub/${tokens.issue(username)}`;
  const getUser = (username: string): MarzbanUser | undefined => {
    const user = panel.users.get(username);
    return user && asMarzbanUser(user);
  };
  const auth = new AdminAuth(panel, sudo);
  const allTags = () => inbounds.map((i) => i.tag);
  const serialize = (user: MarzbanUser) => {
    reviewUser(user);
    return serializeUser(user, inbounds, subscriptionUrl(user.username), { is_sudo: sudo });
  };
  const out = (user: MarzbanUser): PanelResponse => json(200, serialize(user));
  const disabledProtocol = (proxies: object | undefined): PanelResponse | null => {
    const off = Object.keys(proxies ?? {}).find((p) => !inbounds.some((i) => i.protocol === p));
    return off ? detail(400, `Protocol ProxyTypes.${off.toUpperCase()} is disabled on your server`) : null;
  };

  const withAdmin = (handler: (req: PanelRequest, admin: AuthenticatedAdmin) => PanelResponse | Promise<PanelResponse>) => (req: PanelRequest) => {
    const admin = auth.authenticate(req);
    return isResponse(admin) ? admin : handler(req, admin);
  };

  /** get_validated_user: 404 first, then 403 for a user another admin owns. */
  const withUser = (handler: (req: PanelRequest, user: MarzbanUser, admin: AuthenticatedAdmin) => PanelResponse) =>
    withAdmin((req, admin) => {
      const user = getUser(req.params.username!);
      if (!user) return detail(404, 'User not found');
      if (!admin.isSudo && user.admin !== admin.username) return detail(403, "You're not allowed");
      return handler(req, user, admin);
    });

  /** get_validated_sub: a valid signature, an existing user created before the token, no revoke since. */
  const withSubUser = (handler: (req: PanelRequest, user: MarzbanUser) => PanelResponse) => (req: PanelRequest) => {
    const token = tokens.read(req.params.token!);
    const user = token ? getUser(token.username) : undefined;
    if (!token || !user || user.created_at.getTime() > token.issuedMs || (user.sub_revoked_at && user.sub_revoked_at.getTime() > token.issuedMs)) {
      return detail(404, 'Not Found');
    }
    reviewUser(user);
    return handler(req, user);
  };

  const router = new Router()
    .post('/api/admin/token', (req) => {
      const result = auth.login(req);
      return isResponse(result) ? result : json(200, { access_token: result.token, token_type: 'bearer' });
    })
    .get(
      '/api/admin',
      withAdmin((_req, admin) => json(200, { username: admin.username, is_sudo: admin.isSudo, telegram_id: null, discord_webhook: null, users_usage: 0 })),
    )
    .get(
      '/api/inbounds',
      withAdmin(() => {
        const grouped: Record<string, Array<Omit<MarzbanInbound, 'address' | 'path'>>> = {};
        for (const { tag, protocol, network, tls, port } of inbounds) {
          (grouped[protocol] ??= []).push({ tag, protocol, network, tls, port });
        }
        return json(200, grouped);
      }),
    )
    .post('/api/user', withAdmin(createUser))
    .get(
      '/api/user/:username',
      withUser((_req, user) => out(user)),
    )
    .put('/api/user/:username', withUser(modifyUser))
    .delete(
      '/api/user/:username',
      withUser((_req, user) => {
        panel.users.delete(user.username);
        return detail(200, 'User successfully deleted');
      }),
    )
    .post(
      '/api/user/:username/reset',
      withUser((_req, user) => {
        user.used_traffic = 0;
        if (user.status === 'limited') user.status = 'active';
        return out(user);
      }),
    )
    .post(
      '/api/user/:username/revoke_sub',
      withUser((_req, user) => {
        user.sub_revoked_at = new Date(tokens.tick());
        for (const protocol of Object.keys(user.proxies) as Protocol[]) {
          const { id: _id, password: _password, ...rest } = user.proxies[protocol]!;
          user.proxies[protocol] = proxySettings(protocol, rest);
        }
        return out(user);
      }),
    )
    .get('/api/users', withAdmin(listUsers))
    .get('/sub/:token', withSubUser(subscription))
    .get('/sub/:token/', withSubUser(subscription))
    .get(
      '/sub/:token/info',
      withSubUser((_req, user) => json(200, subscriptionInfo(user))),
    )
    .get(
      '/sub/:token/usage',
      withSubUser((_req, user) => json(200, { usages: [{ node_id: null, node_name: 'Master', used_traffic: user.used_traffic }], username: user.username })),
    )
    .get(
      '/sub/:token/:client_type',
      withSubUser((req, user) => {
        const format = CLIENT_TYPES[req.params.client_type!];
        if (!format) {
          return detail(422, { client_type: "String should match pattern '^(sing-box|clash-meta|clash|outline|v2ray|v2ray-json)$'" });
        }
        return subscriptionResponse(format, servers(user), meta(req, user));
      }),
    );

  function createUser(req: PanelRequest, admin: AuthenticatedAdmin): PanelResponse {
    const body = parseJsonObject(req.body);
    if (isResponse(body)) return body;
    const check = new BodyCheck(body);
    const fields = checkMarzbanBody(check, 'create', allTags());
    if (!check.ok || !fields.username) return check.response();
    const refused = disabledProtocol(fields.proxies);
    if (refused) return refused;
    if (panel.users.has(fields.username)) return detail(409, 'User already exists');

    const user: MarzbanUser = {
      id: nextId++,
      username: fields.username,
      proxies: {},
      excluded_inbounds: {},
      expire: fields.expire || null,
      data_limit: fields.data_limit || null,
      data_limit_reset_strategy: fields.data_limit_reset_strategy ?? 'no_reset',
      status: fields.status ?? 'active',
      used_traffic: 0,
      lifetime_used_traffic: 0,
      note: fields.note ?? null,
      sub_updated_at: null,
      sub_last_user_agent: null,
      online_at: null,
      on_hold_expire_duration: fields.on_hold_expire_duration ?? null,
      on_hold_timeout: fields.on_hold_timeout ?? null,
      auto_delete_in_days: fields.auto_delete_in_days ?? null,
      next_plan: fields.next_plan ?? null,
      created_at: new Date(tokens.tick()),
      edit_at: null,
      sub_revoked_at: null,
      admin: admin.username,
    };
    // Without `proxies` the default {} is never validated: the user is saved with none (and fails on the way out).
    for (const [protocol, settings] of Object.entries(fields.proxies ?? {}) as Array<[Protocol, object]>) {
      user.proxies[protocol] = proxySettings(protocol, settings as Record<string, unknown>);
      // Without `inbounds` (the default {} is never validated) every inbound is excluded; a protocol
      // missing from a given `inbounds` gets them all.
      const given = fields.inbounds?.[protocol];
      const wanted = !fields.inbounds ? [] : given?.length ? given : allTags();
      user.excluded_inbounds[protocol] = inbounds.filter((i) => i.protocol === protocol && !wanted.includes(i.tag)).map((i) => i.tag);
    }
    panel.users.set(user.username, user);
    return out(user);
  }

  /** crud.update_user: only non-null fields change; status follows expire / data_limit; no `next_plan` deletes it. */
  function modifyUser(req: PanelRequest, user: MarzbanUser): PanelResponse {
    const body = parseJsonObject(req.body);
    if (isResponse(body)) return body;
    const check = new BodyCheck(body);
    const fields = checkMarzbanBody(check, 'modify', allTags());
    if (!check.ok) return check.response();
    const refused = disabledProtocol(fields.proxies);
    if (refused) return refused;

    // `proxies` replaces them: a proxy sent keeps its row but takes the settings sent (`{}` = new credentials), a new
    // one is a new row excluded from nothing, one left out is deleted with its exclusions.
    if (fields.proxies && Object.keys(fields.proxies).length > 0) {
      const next: MarzbanUser['proxies'] = {};
      for (const [protocol, settings] of Object.entries(fields.proxies) as Array<[Protocol, Record<string, unknown>]>) {
        next[protocol] = proxySettings(protocol, settings);
        if (!user.proxies[protocol]) user.excluded_inbounds[protocol] = [];
      }
      for (const protocol of Object.keys(user.proxies) as Protocol[]) if (!next[protocol]) delete user.excluded_inbounds[protocol];
      user.proxies = next;
    }
    // UserModify.excluded_inbounds: only the protocols named change, and only for a proxy the user has.
    if (fields.inbounds && Object.keys(fields.inbounds).length > 0) {
      for (const [protocol, tags] of Object.entries(fields.inbounds) as Array<[Protocol, string[]]>) {
        if (!user.proxies[protocol]) continue;
        user.excluded_inbounds[protocol] = inbounds.filter((i) => i.protocol === protocol && !tags.includes(i.tag)).map((i) => i.tag);
      }
    }
    if (fields.status) user.status = fields.status;
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
    if (fields.expire !== undefined && fields.expire !== null) {
      user.expire = fields.expire || null;
      if (user.status === 'active' || user.status === 'expired') {
        user.status = !user.expire || user.expire > Date.now() / 1000 ? 'active' : 'expired';
      }
    }
    if (fields.note !== undefined && fields.note !== null) user.note = fields.note || null;
    if (fields.data_limit_reset_strategy) user.data_limit_reset_strategy = fields.data_limit_reset_strategy;
    if (fields.on_hold_timeout) user.on_hold_timeout = fields.on_hold_timeout;
    if (fields.on_hold_expire_duration) user.on_hold_expire_duration = fields.on_hold_expire_duration;
    if (fields.auto_delete_in_days !== undefined && fields.auto_delete_in_days !== null) {
      user.auto_delete_in_days = fields.auto_delete_in_days;
    }
    user.next_plan = fields.next_plan ?? null;
    user.edit_at = new Date();
    return out(user);
  }

  function listUsers(req: PanelRequest, admin: AuthenticatedAdmin): PanelResponse {
    const errors: Record<string, string> = {};
    const offset = readIntQuery(req.query, 'offset', errors);
    const limit = readIntQuery(req.query, 'limit', errors);
    const status = req.query.get('status');
    if (status !== null && !(STATUSES as readonly string[]).includes(status)) {
      errors.status = "Input should be 'active', 'disabled', 'limited', 'expired' or 'on_hold'";
    }
    if (Object.keys(errors).length) return detail(422, errors);

    let users = [...panel.users.values()].map(asMarzbanUser);
    users.forEach(reviewUser);
    const search = req.query.get('search');
    if (search) users = users.filter((u) => ilikeContains(u.username, search) || ilikeContains(u.note ?? '', search));
    const names = req.query.getAll('username');
    if (names.length) users = users.filter((u) => names.includes(u.username));
    if (status) users = users.filter((u) => u.status === status);
    if (!admin.isSudo) users = users.filter((u) => u.admin === admin.username);
    const sort = req.query.get('sort');
    if (sort) {
      for (const option of sort
        .replace(/^,+|,+$/g, '')
        .split(',')
        .reverse()) {
        const key = option.replace(/^-/, '') as (typeof SORTS)[number];
        if (!SORTS.includes(key)) return detail(400, `"${option}" is not a valid sort option`);
        const sign = option.startsWith('-') ? -1 : 1;
        const value = (u: MarzbanUser) => (key === 'created_at' ? u.created_at.getTime() : (u[key] ?? 0));
        users.sort((a, b) => (value(a) < value(b) ? -sign : value(a) > value(b) ? sign : 0));
      }
    } else {
      users.sort((a, b) => a.id - b.id);
    }
    const total = users.length;
    const start = offset ?? 0;
    const page = users.slice(start, limit === undefined ? undefined : start + limit);
    return json(200, { users: page.map(serialize), total });
  }

  function subscriptionInfo(user: MarzbanUser): Record<string, unknown> {
    const { admin: _admin, excluded_inbounds: _excluded, note: _note, inbounds: _inbounds, auto_delete_in_days: _auto, ...info } = serialize(user);
    return info;
  }

  function meta(req: PanelRequest, user: MarzbanUser) {
    return {
      username: user.username,
      usedBytes: user.used_traffic,
      limitBytes: user.data_limit,
      expireUnix: user.expire ?? 0,
      ...sub,
      pageUrl: req.url.toString(),
    };
  }

  /** The subscription routes validate a UserResponse first: a user without proxies answers 500 there too. */
  function servers(user: MarzbanUser) {
    if (Object.keys(user.proxies).length === 0) throw new Error('Each user needs at least one proxy');
    return userServers(user, inbounds);
  }

  function subscription(req: PanelRequest, user: MarzbanUser): PanelResponse {
    if (wantsHtml(req.headers.accept)) return subscriptionPage(user.username, user.status, servers(user));
    const userAgent = req.headers['user-agent'] ?? '';
    user.sub_updated_at = new Date();
    user.sub_last_user_agent = userAgent;
    return subscriptionResponse(formatForUserAgent(userAgent, RULES), servers(user), meta(req, user));
  }

  const http = await startPanelHttp(panel, router);
  panel.url = http.url;
  panel.close = http.close;
  return panel;
}
