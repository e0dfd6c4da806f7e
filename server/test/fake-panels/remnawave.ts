import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { JwtSigner } from './auth.js';
import {
  ADMIN_JWT_FOR_API,
  CLIENT_TYPES,
  CreateUserBody,
  DEFAULT_RESPONSE_HEADERS,
  DEFAULT_SQUADS,
  ERRORS,
  ExtendUserBody,
  FORBIDDEN_RESOURCE,
  SUBSCRIPTION_NOT_FOUND,
  UNAUTHORIZED,
  UpdateUserBody,
  UserIdParams,
  UsersQuery,
  applyReviewJobs,
  earlyRemarks,
  errorReply,
  matchResponseRule,
  newUser,
  remarkServers,
  routeNotFound,
  serializeSquad,
  serializeUser,
  subscriptionInfo,
  subscriptionUserinfo,
  updateUser,
  userServers,
  validationReply,
  type JsonReply,
  type RemnawaveSquad,
  type RemnawaveUser,
  type ResponseType,
} from './remnawave-model.js';
import { clashYaml, singBoxJson, toLink, xrayJson } from './subscription.js';
import type { LoggedRequest, PanelFaults, QueuedFailure } from './types.js';

export type { RemnawaveSquad, RemnawaveUser } from './remnawave-model.js';

export interface FakeRemnawaveOptions {
  /** Port on 127.0.0.1; default 0 = a free port. */
  port?: number;
  squads?: RemnawaveSquad[];
  /** NODE_ENV=development: no forwarded-header check. Default false (production). */
  devMode?: boolean;
  /** What `GET /api/system/metadata` reports. Default '3.3.2'. */
  version?: string;
  /**
   * SUB_PUBLIC_DOMAIN: the panel builds `https://${subPublicDomain}/${shortUuid}`. By default the fake
   * hands out `${url}/api/sub/${shortUuid}` instead (plain http, so tests can fetch it): the one deviation.
   */
  subPublicDomain?: string;
  /** The global HWID device-limit setting. Default off, fallback limit 999 (the seeded settings). */
  hwid?: { enabled: boolean; fallbackDeviceLimit: number };
  /** `isShowCustomRemarks`: inactive users get remark-only lines. Default true (seeded). */
  showCustomRemarks?: boolean;
}

/** A one-shot slow answer: the route runs (and writes) at once, its answer is held back `delayMs`. */
export interface SlowAnswer {
  method?: string;
  pathPrefix?: string;
  delayMs: number;
}

export interface FakeRemnawave {
  /** e.g. `http://127.0.0.1:41234`, no trailing slash. */
  url: string;
  /** An API token with every scope (`*`), as made in the panel. */
  apiToken: string;
  /** A valid admin session JWT (the dashboard's): the API answers it 403, it wants an API token. */
  adminSessionToken: string;
  /** Users by username: inspect and edit freely (status moves by the panel's review jobs on each request). */
  users: Map<string, RemnawaveUser>;
  squads: RemnawaveSquad[];
  requests: LoggedRequest[];
  faults: PanelFaults & { slowOnce: SlowAnswer[] };
  /** Development mode (no forwarded-header check); may be flipped at run time. */
  devMode: boolean;
  /**
   * What sits in front of the panel: 'none' (it sees the headers as sent), or 'plain-http' (a reverse
   * proxy reached over http, which sets `X-Forwarded-Proto: http`: the panel then drops every request).
   */
  frontProxy: 'none' | 'plain-http';
  version: string;
  hwid: { enabled: boolean; fallbackDeviceLimit: number };
  showCustomRemarks: boolean;
  /** Makes another API token, limited to `scopes` (e.g. ['users:read']). */
  issueApiToken(scopes?: string[]): string;
  /** Deletes an API token: its JWT stays well-formed, the panel answers it 403. */
  deleteApiToken(token: string): void;
  close(): Promise<void>;
  /** The panel process stops (connections are refused) and starts again on the same port, with its data and tokens. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: unknown;
  params: Record<string, string>;
}

type Handler = (req: Request) => JsonReply | Promise<JsonReply>;
interface Route {
  method: string;
  segments: string[];
  /** The API-token scope check: resource, endpoint scope and kind (libs/contract endpointDetails). */
  scope?: { resource: string; endpoint: string; kind: 'read' | 'write' };
  handler: Handler;
}

/** A raw answer (the public subscription routes are not JSON). */
interface RawReply {
  status: number;
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

/**
 * A fake Remnawave 3.3.2 on 127.0.0.1 that does what the panel's source does, quirks included:
 * - outside development mode, a request without `X-Forwarded-For` or with `X-Forwarded-Proto` other than
 *   `https` gets its socket destroyed, no answer (src/common/middlewares/proxy-check.middleware.ts);
 * - `Authorization: Bearer <API token>` (an HS256 JWT with role API); bad token 401, deleted token or a
 *   missing scope 403 "Forbidden resource", an admin session JWT 403 "For API requests you must create own API-token…";
 * - answers wrapped in `{response: …}`; errors `{timestamp, path, message, errorCode}`; validation 400
 *   `{statusCode, message: 'Validation failed', errors: [zod issues]}`; unknown routes Nest's 404 `Cannot GET …`;
 * - users by numeric `id`, by-username lookup, create 201, duplicate name 400 A019, delete 204, actions, PATCH;
 * - the public `/api/sub/{shortUuid}[/{clientType}]` with the seeded response rules, remark-only lines for
 *   inactive users, `subscription-userinfo`, and the HWID check when the global setting is on.
 */
export async function startFakeRemnawave(options: FakeRemnawaveOptions = {}): Promise<FakeRemnawave> {
  const signer = new JwtSigner();
  const tokens = new Map<string, string[]>(); // token uuid -> scopes
  const issueApiToken = (scopes: string[] = ['*']): string => {
    const uuid = randomUUID();
    tokens.set(uuid, scopes);
    const now = Math.floor(Date.now() / 1000);
    return signer.sign({ uuid, username: null, role: 'API', iat: now, exp: now + 365 * 86400 });
  };
  let nextId = 1;
  const devices = new Map<number, Set<string>>(); // HWID devices by user id

  const panel: FakeRemnawave = {
    url: '',
    apiToken: issueApiToken(),
    adminSessionToken: signer.sign({ uuid: randomUUID(), username: 'admin', role: 'ADMIN', iat: Math.floor(Date.now() / 1000) }),
    users: new Map(),
    squads: structuredClone(options.squads ?? DEFAULT_SQUADS),
    requests: [],
    faults: { down: false, delayMs: 0, failNext: [], slowOnce: [] },
    devMode: options.devMode ?? false,
    frontProxy: 'none',
    version: options.version ?? '3.3.2',
    hwid: options.hwid ?? { enabled: false, fallbackDeviceLimit: 999 },
    showCustomRemarks: options.showCustomRemarks ?? true,
    issueApiToken,
    deleteApiToken: (token) => {
      const uuid = signer.verify(token)?.uuid;
      if (typeof uuid === 'string') tokens.delete(uuid);
    },
    close: async () => {},
    stop: async () => {},
    start: async () => {},
  };

  const subscriptionUrl = (user: RemnawaveUser) =>
    options.subPublicDomain ? `https://${options.subPublicDomain}/${user.shortUuid}` : `${panel.url}/api/sub/${user.shortUuid}`;
  const out = (user: RemnawaveUser, status = 200): JsonReply => ({ status, body: { response: serializeUser(user, panel.squads, subscriptionUrl(user)) } });
  const findById = (id: number) => [...panel.users.values()].find((user) => user.id === id);
  const linksOf = (user: RemnawaveUser) => {
    const servers = userServers(user, panel.squads);
    const remarks = earlyRemarks(user, servers, panel.showCustomRemarks);
    return (remarks ? remarkServers(remarks) : servers).map(toLink);
  };

  // ---- users -------------------------------------------------------------------------------

  const routes: Route[] = [];
  const add = (method: string, pattern: string, scope: Route['scope'], handler: Handler) =>
    routes.push({ method, segments: pattern.split('/').filter(Boolean), scope, handler });
  const users = (endpoint: string, kind: 'read' | 'write') => ({ resource: 'users', endpoint, kind });

  /** A user route by `:userId`: params validated (positive number), then A025 when there is no such user. */
  const byId =
    (handler: (req: Request, user: RemnawaveUser) => JsonReply): Handler =>
    (req) => {
      const params = UserIdParams.safeParse(req.params);
      if (!params.success) return validationReply(params.error);
      const user = findById(params.data.userId);
      return user ? handler(req, user) : errorReply(req.path, ERRORS.USER_NOT_FOUND);
    };

  add('POST', '/api/users', users('create', 'write'), (req) => {
    const body = CreateUserBody.safeParse(req.body);
    if (!body.success) return validationReply(body.error);
    if (panel.users.has(body.data.username)) return errorReply(req.path, ERRORS.USER_USERNAME_ALREADY_EXISTS);
    if ([...panel.users.values()].some((user) => user.shortUuid === body.data.shortUuid)) return errorReply(req.path, ERRORS.USER_SHORT_UUID_ALREADY_EXISTS);
    // The squad links are a foreign key: an unknown squad fails the whole insert (Prisma P2003 → A018).
    if ((body.data.activeInternalSquads ?? []).some((uuid) => !panel.squads.some((squad) => squad.uuid === uuid))) {
      return errorReply(req.path, ERRORS.CREATE_USER_ERROR);
    }
    const user = newUser(nextId++, body.data);
    panel.users.set(user.username, user);
    return out(user, 201);
  });
  add('PATCH', '/api/users', users('update', 'write'), (req) => {
    const body = UpdateUserBody.safeParse(req.body);
    if (!body.success) return validationReply(body.error);
    const user = body.data.username !== undefined ? panel.users.get(body.data.username) : findById(body.data.id!);
    if (!user || (body.data.id !== undefined && user.id !== body.data.id)) return errorReply(req.path, ERRORS.USER_NOT_FOUND);
    if ((body.data.activeInternalSquads ?? []).some((uuid) => !panel.squads.some((squad) => squad.uuid === uuid))) {
      return errorReply(req.path, ERRORS.UPDATE_USER_ERROR);
    }
    updateUser(user, body.data);
    return out(user);
  });
  add(
    'DELETE',
    '/api/users/:userId',
    users('delete', 'write'),
    byId((_req, user) => {
      panel.users.delete(user.username);
      return { status: 204 };
    }),
  );
  add('GET', '/api/users', users('list', 'read'), (req) => {
    const query = UsersQuery.safeParse(Object.fromEntries(req.query));
    if (!query.success) return validationReply(query.error);
    const sorted = [...panel.users.values()].sort((a, b) => b.id - a.id); // ORDER BY users.id DESC
    for (const sort of [...(query.data.sorting ?? [])].reverse()) {
      const key = sort.id as keyof RemnawaveUser;
      sorted.sort((a, b) => (a[key]! < b[key]! ? -1 : a[key]! > b[key]! ? 1 : 0) * (sort.desc ? -1 : 1));
    }
    const page = sorted.slice(query.data.start, query.data.start + query.data.size);
    return { status: 200, body: { response: { users: page.map((user) => serializeUser(user, panel.squads, subscriptionUrl(user))), total: sorted.length } } };
  });
  add('GET', '/api/users/by-username/:username', users('by-username', 'read'), (req) => {
    const user = panel.users.get(req.params.username!);
    return user ? out(user) : errorReply(req.path, ERRORS.GET_USER_BY_UNIQUE_FIELDS_NOT_FOUND);
  });
  add('GET', '/api/users/:userId', users('by-id', 'read'), (req) => {
    const params = UserIdParams.safeParse(req.params);
    if (!params.success) return validationReply(params.error);
    const user = findById(params.data.userId);
    return user ? out(user) : errorReply(req.path, ERRORS.GET_USER_BY_UNIQUE_FIELDS_NOT_FOUND);
  });
  add(
    'POST',
    '/api/users/:userId/actions/enable',
    users('enable', 'write'),
    byId((req, user) => {
      if (user.status === 'ACTIVE') return errorReply(req.path, ERRORS.USER_ALREADY_ENABLED);
      user.status = 'ACTIVE'; // whatever it was: an expired user is ACTIVE until the next review job
      return out(user);
    }),
  );
  add(
    'POST',
    '/api/users/:userId/actions/disable',
    users('disable', 'write'),
    byId((req, user) => {
      if (user.status === 'DISABLED') return errorReply(req.path, ERRORS.USER_ALREADY_DISABLED);
      user.status = 'DISABLED';
      return out(user);
    }),
  );
  add(
    'POST',
    '/api/users/:userId/actions/reset-traffic',
    users('reset-traffic', 'write'),
    byId((_req, user) => {
      if (user.status === 'LIMITED') user.status = 'ACTIVE';
      user.usedTrafficBytes = 0;
      user.lastTrafficResetAt = new Date();
      user.lastTriggeredThreshold = 0;
      return out(user);
    }),
  );
  add(
    'POST',
    '/api/users/:userId/actions/extend',
    users('extend', 'write'),
    byId((req, user) => {
      const body = ExtendUserBody.safeParse(req.body);
      if (!body.success) return validationReply(body.error);
      const now = Date.now();
      const base = Math.max(user.expireAt.getTime(), now);
      user.expireAt = new Date(base + body.data.days * 86_400_000);
      if (user.status === 'EXPIRED') user.status = 'ACTIVE';
      return out(user);
    }),
  );

  // ---- squads, subscriptions, system ---------------------------------------------------------

  add('GET', '/api/internal-squads', { resource: 'internal-squads', endpoint: 'list', kind: 'read' }, () => ({
    status: 200,
    body: { response: { total: panel.squads.length, internalSquads: panel.squads.map((squad, i) => serializeSquad(squad, i, [...panel.users.values()])) } },
  }));
  add('GET', '/api/subscriptions/by-username/:username', { resource: 'subscriptions', endpoint: 'by-username', kind: 'read' }, (req) => {
    const user = panel.users.get(req.params.username!);
    // getSubscriptionInfo fails with USER_NOT_FOUND here (not A063).
    if (!user) return errorReply(req.path, ERRORS.USER_NOT_FOUND);
    return { status: 200, body: { response: subscriptionInfo(user, linksOf(user), subscriptionUrl(user)) } };
  });
  add('GET', '/api/system/metadata', { resource: 'system', endpoint: 'metadata', kind: 'read' }, () => ({
    status: 200,
    body: {
      response: {
        version: panel.version,
        build: { time: new Date(0).toUTCString(), number: '0' },
        git: {
          backend: { commitSha: '347e6de1', branch: 'main', commitUrl: 'https://github.com/remnawave/backend/commit/347e6de1' },
          frontend: { commitSha: 'unknown', commitUrl: 'https://github.com/remnawave/frontend' },
        },
      },
    },
  }));

  // ---- public subscription -------------------------------------------------------------------

  function renderSubscription(user: RemnawaveUser, type: Exclude<ResponseType, 'BROWSER'>): { body: string; contentType: string } {
    const servers = userServers(user, panel.squads);
    const remarks = earlyRemarks(user, servers, panel.showCustomRemarks);
    const lines = remarks ? remarkServers(remarks) : servers;
    switch (type) {
      case 'XRAY_BASE64':
        return { body: b64(lines.map(toLink).join('\n')), contentType: 'text/plain; charset=utf-8' };
      case 'SINGBOX':
        return { body: singBoxJson(lines), contentType: JSON_TYPE };
      case 'XRAY_JSON':
        return { body: xrayJson(lines), contentType: JSON_TYPE };
      case 'MIHOMO':
      case 'STASH':
      case 'CLASH':
        return { body: clashYaml(lines), contentType: 'text/yaml; charset=utf-8' };
    }
  }

  function profileHeaders(user: RemnawaveUser): Record<string, string> {
    return {
      'content-disposition': `attachment; filename=${user.username}`,
      'subscription-userinfo': subscriptionUserinfo(user),
      ...DEFAULT_RESPONSE_HEADERS,
      'profile-web-page-url': subscriptionUrl(user),
    };
  }

  /** SubscriptionController + ResponseRulesMiddleware + SubscriptionService.getSubscriptionByShortUuid. */
  function subscription(req: Request, shortUuid: string, clientType: string | undefined): RawReply | JsonReply {
    const userAgent = String(req.headers['user-agent'] ?? '');
    // The middleware answers outside the controller's filters: Nest's default body.
    if (!userAgent) return { status: 403, body: { statusCode: 403, message: 'Forbidden' } };
    let type: ResponseType;
    if (clientType !== undefined) {
      const forced = CLIENT_TYPES[clientType as keyof typeof CLIENT_TYPES];
      if (!forced) return { status: 403, body: { statusCode: 403, message: 'Forbidden' } }; // BLOCK
      type = forced;
    } else {
      type = matchResponseRule({ accept: req.headers.accept, 'user-agent': userAgent });
    }
    const user = [...panel.users.values()].find((candidate) => candidate.shortUuid === shortUuid);
    if (!user) return { status: 404, body: SUBSCRIPTION_NOT_FOUND };
    if (type === 'BROWSER') {
      const links = panel.hwid.enabled ? [] : linksOf(user);
      return { status: 200, body: subscriptionInfo(user, links, subscriptionUrl(user)) };
    }
    const refusal = panel.hwid.enabled ? checkHwid(user, req.headers['x-hwid']) : null;
    if (refusal) {
      // 200 with an empty body (or the refusal's remark when custom remarks are shown) and x-hwid-* headers.
      const headers = { ...profileHeaders(user), 'x-hwid-active': 'true', [`x-hwid-${refusal}`]: 'true', 'x-hwid-limit': 'true' };
      if (!panel.showCustomRemarks) return { status: 200, body: '', contentType: 'text/plain; charset=utf-8', headers };
      const remark = refusal === 'not-supported' ? 'App not supported' : 'Limit of devices reached';
      return { status: 200, ...renderWith(remarkServers([remark]), type), headers };
    }
    return { status: 200, ...renderSubscription(user, type), headers: profileHeaders(user) };
  }

  /**
   * checkHwidDeviceLimit: `hwidDeviceLimit` 0 lets everything through; otherwise no valid `x-hwid` is
   * "not supported", and a new device beyond `hwidDeviceLimit ?? fallbackDeviceLimit` is refused.
   */
  function checkHwid(user: RemnawaveUser, header: string | string[] | undefined): 'not-supported' | 'max-devices-reached' | null {
    if (user.hwidDeviceLimit === 0) return null;
    const hwid = Array.isArray(header) ? header[0] : header;
    if (!hwid || !/^[a-zA-Z0-9=-]{10,64}$/.test(hwid)) return 'not-supported';
    const known = devices.get(user.id) ?? new Set<string>();
    if (known.has(hwid)) return null;
    if (known.size >= (user.hwidDeviceLimit ?? panel.hwid.fallbackDeviceLimit)) return 'max-devices-reached';
    devices.set(user.id, known.add(hwid));
    return null;
  }

  function renderWith(lines: ReturnType<typeof remarkServers>, type: Exclude<ResponseType, 'BROWSER'>) {
    if (type === 'XRAY_BASE64') return { body: b64(lines.map(toLink).join('\n')), contentType: 'text/plain; charset=utf-8' };
    if (type === 'SINGBOX' || type === 'XRAY_JSON') return { body: singBoxJson(lines), contentType: JSON_TYPE };
    return { body: clashYaml(lines), contentType: 'text/yaml; charset=utf-8' };
  }

  function publicRoute(req: Request): RawReply | JsonReply | undefined {
    const parts = req.path.split('/').filter(Boolean);
    if (req.method !== 'GET' || parts[0] !== 'api' || parts[1] !== 'sub' || parts.length < 3 || parts.length > 4) return undefined;
    const [, , shortUuid, clientType] = parts as [string, string, string, string | undefined];
    if (clientType === 'info') {
      const user = [...panel.users.values()].find((candidate) => candidate.shortUuid === shortUuid);
      if (!user) return errorReply(req.path, ERRORS.USER_NOT_FOUND);
      return { status: 200, body: { response: subscriptionInfo(user, panel.hwid.enabled ? [] : linksOf(user), subscriptionUrl(user)) } };
    }
    return subscription(req, shortUuid, clientType);
  }

  // ---- auth and dispatch -------------------------------------------------------------------

  /** JwtDefaultGuard, RolesGuard, ScopesGuard: null when the request may go on. */
  function authenticate(req: Request, scope: Route['scope']): JsonReply | null {
    const match = /^Bearer\s+(\S+)$/.exec(String(req.headers.authorization ?? '').trim());
    const payload = match ? signer.verify(match[1]!) : null;
    if (!payload) return UNAUTHORIZED;
    if (payload.role === 'ADMIN') return ADMIN_JWT_FOR_API;
    if (payload.role !== 'API' || typeof payload.uuid !== 'string') return FORBIDDEN_RESOURCE;
    const scopes = tokens.get(payload.uuid);
    if (!scopes || scopes.length === 0) return FORBIDDEN_RESOURCE;
    if (!scope || scopes.includes('*')) return null;
    const allowed = [`${scope.resource}:*`, `${scope.resource}:${scope.kind}`, `${scope.resource}:${scope.endpoint}`];
    return scopes.some((granted) => allowed.includes(granted)) ? null : FORBIDDEN_RESOURCE;
  }

  function matchRoute(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    const parts = path.split('/').filter(Boolean);
    for (const route of routes) {
      if (route.method !== method || route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const ok = route.segments.every((want, i) => {
        if (want.startsWith(':')) return (params[want.slice(1)] = decodeURIComponent(parts[i]!)) !== '';
        return want === parts[i];
      });
      if (ok) return { route, params };
    }
    return undefined;
  }

  async function dispatch(req: Request): Promise<RawReply | JsonReply> {
    const open = publicRoute(req);
    if (open) return open;
    const found = matchRoute(req.method, req.path);
    if (!found) return routeNotFound(req.method, req.path);
    const refused = authenticate(req, found.route.scope);
    if (refused) return refused;
    const now = new Date();
    for (const user of panel.users.values()) applyReviewJobs(user, now);
    return found.route.handler({ ...req, params: found.params });
  }

  /** proxyCheckMiddleware: both headers present, the protocol `https`, or the socket is destroyed. */
  function passesProxyCheck(headers: IncomingMessage['headers']): boolean {
    if (panel.devMode) return true;
    const forwardedFor = panel.frontProxy === 'plain-http' ? '127.0.0.1' : headers['x-forwarded-for'];
    const forwardedProto = panel.frontProxy === 'plain-http' ? 'http' : headers['x-forwarded-proto'];
    return Boolean(forwardedFor) && forwardedProto === 'https';
  }

  const takeFirst = <T extends { method?: string; pathPrefix?: string }>(list: T[], method: string, target: string): T | undefined => {
    const index = list.findIndex((f) => (!f.method || f.method.toUpperCase() === method) && (!f.pathPrefix || target.startsWith(f.pathPrefix)));
    return index === -1 ? undefined : list.splice(index, 1)[0];
  };

  function failureReply(failure: QueuedFailure): RawReply {
    const body =
      failure.body ??
      (failure.status >= 500
        ? JSON.stringify({ message: 'Internal server error', statusCode: 500 })
        : JSON.stringify({ message: 'Error', statusCode: failure.status }));
    return { status: failure.status, body, contentType: failure.contentType ?? (/^\s*[[{]/.test(body) ? JSON_TYPE : 'text/plain; charset=utf-8') };
  }

  function parseBody(raw: string, contentType: string): unknown {
    if (raw === '' || !contentType.includes('application/json')) return undefined;
    try {
      return JSON.parse(raw);
    } catch {
      return undefined;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const socket: Socket = req.socket;
    if (panel.faults.down) return void socket.resetAndDestroy();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const method = (req.method ?? 'GET').toUpperCase();
    const target = req.url ?? '/';
    panel.requests.push({ method, path: target, headers: { ...req.headers }, body: raw });
    if (panel.faults.delayMs > 0) await sleep(panel.faults.delayMs);
    if (panel.faults.down) return void socket.resetAndDestroy();
    if (!passesProxyCheck(req.headers)) return void socket.destroy();

    const url = new URL(target, 'http://127.0.0.1');
    const failure = takeFirst(panel.faults.failNext, method, target);
    let reply: RawReply | JsonReply;
    try {
      reply = failure
        ? failureReply(failure)
        : await dispatch({
            method,
            path: url.pathname,
            query: url.searchParams,
            headers: req.headers,
            body: parseBody(raw, String(req.headers['content-type'] ?? '')),
            params: {},
          });
    } catch {
      reply = { status: 500, body: { message: 'Internal server error', statusCode: 500 } };
    }
    const slow = takeFirst(panel.faults.slowOnce, method, target);
    if (slow) await sleep(slow.delayMs);
    if (res.destroyed) return;
    send(res, reply);
  }

  function send(res: ServerResponse, reply: RawReply | JsonReply): void {
    const headers: Record<string, string> = { 'x-content-type-options': 'nosniff' };
    let body = '';
    if ('contentType' in reply) {
      body = reply.body;
      Object.assign(headers, reply.headers, { 'content-type': reply.contentType });
    } else if (reply.body !== undefined) {
      body = JSON.stringify(reply.body);
      headers['content-type'] = JSON_TYPE;
    }
    if (reply.status !== 204) headers['content-length'] = String(Buffer.byteLength(body));
    res.writeHead(reply.status, headers);
    res.end(reply.status === 204 ? undefined : body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
    });
  });
  server.on('connection', (socket: Socket) => {
    if (panel.faults.down) socket.resetAndDestroy();
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  panel.url = `http://127.0.0.1:${port}`;
  panel.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  panel.stop = panel.close;
  panel.start = () => listen(port);
  return panel;
}
