import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LoggedRequest, PanelFaults, QueuedFailure } from './types.js';

/** A parsed request as route handlers see it (FastAPI-like: path params decoded, body as text). */
export interface PanelRequest {
  method: string;
  /** Percent-decoded path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** The absolute URL the client asked for. */
  url: URL;
  params: Record<string, string>;
}

export interface PanelResponse {
  status: number;
  body: string;
  /** '' = no content-type header. */
  contentType: string;
  headers?: Record<string, string>;
}

export type RouteHandler = (req: PanelRequest) => PanelResponse | Promise<PanelResponse>;

export const TEXT = 'text/plain; charset=utf-8';

export function json(status: number, data: unknown, headers?: Record<string, string>): PanelResponse {
  return { status, body: JSON.stringify(data), contentType: 'application/json', headers };
}

export function text(status: number, body: string, contentType = TEXT, headers?: Record<string, string>): PanelResponse {
  return { status, body, contentType, headers };
}

/** `{"detail": …}` — the shape of every FastAPI error. */
export function detail(status: number, message: unknown, headers?: Record<string, string>): PanelResponse {
  return json(status, { detail: message }, headers);
}

/** What uvicorn/Starlette answers for an unhandled exception: text/plain, not JSON. */
export function internalError(): PanelResponse {
  return text(500, 'Internal Server Error');
}

interface RouteEntry {
  method: string;
  segments: string[];
  handler: RouteHandler;
}

/** A tiny Starlette-like router: first match wins, 405 when only the method differs, 307 for a missing/extra slash. */
export class Router {
  private readonly routes: RouteEntry[] = [];

  add(method: string, pattern: string, handler: RouteHandler): this {
    this.routes.push({ method, segments: pattern.split('/').slice(1), handler });
    return this;
  }
  get(pattern: string, handler: RouteHandler): this {
    return this.add('GET', pattern, handler);
  }
  post(pattern: string, handler: RouteHandler): this {
    return this.add('POST', pattern, handler);
  }
  put(pattern: string, handler: RouteHandler): this {
    return this.add('PUT', pattern, handler);
  }
  delete(pattern: string, handler: RouteHandler): this {
    return this.add('DELETE', pattern, handler);
  }

  private static params(route: RouteEntry, parts: string[]): Record<string, string> | null {
    if (route.segments.length !== parts.length) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < parts.length; i++) {
      const want = route.segments[i]!;
      const got = parts[i]!;
      if (want.startsWith(':')) {
        if (got === '') return null;
        params[want.slice(1)] = got;
      } else if (want !== got) {
        return null;
      }
    }
    return params;
  }

  async dispatch(req: Omit<PanelRequest, 'params'>): Promise<PanelResponse> {
    const parts = splitPath(req.path);
    if (!parts) return detail(404, 'Not Found');
    let pathMatched = false;
    for (const route of this.routes) {
      const params = Router.params(route, parts);
      if (!params) continue;
      if (route.method !== req.method) {
        pathMatched = true;
        continue;
      }
      return route.handler({ ...req, params });
    }
    if (pathMatched) return detail(405, 'Method Not Allowed');
    // Starlette's redirect_slashes: the same path with the trailing slash toggled.
    if (req.path !== '/') {
      const other = req.path.endsWith('/') ? req.path.slice(0, -1) : `${req.path}/`;
      const otherParts = splitPath(other);
      if (otherParts && this.routes.some((route) => Router.params(route, otherParts))) {
        const target = new URL(req.url);
        target.pathname = target.pathname.endsWith('/') ? target.pathname.slice(0, -1) : `${target.pathname}/`;
        return { status: 307, body: '', contentType: '', headers: { location: target.toString() } };
      }
    }
    return detail(404, 'Not Found');
  }
}

function splitPath(path: string): string[] | null {
  try {
    return path
      .split('/')
      .slice(1)
      .map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

function faultResponse(failure: QueuedFailure): PanelResponse {
  const body = failure.body ?? (failure.status >= 500 ? 'Internal Server Error' : JSON.stringify({ detail: STATUS_CODES[failure.status] ?? 'Error' }));
  const contentType = failure.contentType ?? (/^\s*[[{]/.test(body) ? 'application/json' : TEXT);
  return { status: failure.status, body, contentType };
}

function takeFailure(faults: PanelFaults, method: string, target: string): QueuedFailure | undefined {
  const index = faults.failNext.findIndex((f) => (!f.method || f.method.toUpperCase() === method) && (!f.pathPrefix || target.startsWith(f.pathPrefix)));
  return index === -1 ? undefined : faults.failNext.splice(index, 1)[0];
}

export interface StartedServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a real HTTP server on 127.0.0.1 (on `port`, default 0 = a free port) that applies the faults,
 * logs every request and routes it. Rejects when the port cannot be bound (e.g. EADDRINUSE).
 */
export async function startPanelHttp(state: { faults: PanelFaults; requests: LoggedRequest[] }, router: Router, port = 0): Promise<StartedServer> {
  const reset = (socket: Socket): void => {
    if (!socket.destroyed) socket.resetAndDestroy();
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (state.faults.down) return reset(req.socket);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const method = (req.method ?? 'GET').toUpperCase();
    const target = req.url ?? '/';
    state.requests.push({ method: req.method ?? 'GET', path: target, headers: { ...req.headers }, body });

    let response: PanelResponse;
    try {
      if (state.faults.delayMs > 0) await sleep(state.faults.delayMs);
      if (state.faults.down) return reset(req.socket);
      const failure = takeFailure(state.faults, method, target);
      if (failure) {
        response = faultResponse(failure);
      } else {
        const url = new URL(target, `http://${req.headers.host ?? '127.0.0.1'}`);
        response = await router.dispatch({ method, path: url.pathname, query: url.searchParams, headers: req.headers, body, url });
      }
    } catch {
      response = internalError();
    }
    if (res.destroyed || res.headersSent) return;
    const headers: Record<string, string> = {
      server: 'uvicorn',
      'content-length': String(Buffer.byteLength(response.body)),
      ...response.headers,
    };
    if (response.contentType) headers['content-type'] = response.contentType;
    res.writeHead(response.status, headers);
    res.end(response.body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(500, { 'content-type': TEXT });
        res.end('Internal Server Error');
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    if (state.faults.down) reset(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
