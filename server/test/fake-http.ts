/**
 * The HTTP plumbing the payment fakes (Stripe, BTCPay, YooKassa, Crypto Pay) share: the answer a route
 * returns, the answers every provider gives alike, reading a request, and serving on 127.0.0.1.
 * Each fake keeps its provider's own shapes (JSON content type, error bodies, crash answer) in its http.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake answers one HTTP request with. */
export interface HttpAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
  /** Carried out, but the connection is closed without the answer (a fake's `loseNextAnswer`). */
  lost?: boolean;
}

/** Compact JSON; a provider that names its content type differently passes its own. */
export function json(status: number, data: unknown, contentType = 'application/json; charset=utf-8'): HttpAnswer {
  return { status, body: JSON.stringify(data), headers: { 'content-type': contentType } };
}

export function html(status: number, body: string): HttpAnswer {
  return { status, body, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } };
}

export function redirect(location: string): HttpAnswer {
  return { status: 303, body: '', headers: { location, 'cache-control': 'no-store' } };
}

/** What a browser gets for a page that is not there. */
export const pageNotFound = (): HttpAnswer => ({ status: 404, body: 'Not Found\n', headers: { 'content-type': 'text/plain; charset=utf-8' } });

/** One request header (the first, when repeated), or null. */
export function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** A percent-decoded path segment ('' when malformed, which no route matches). */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return '';
  }
}

const MAX_BODY_BYTES = 1024 * 1024;

/** The request body's bytes, or null when it is over `limit` (1 MiB unless given). */
export async function readBytes(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The request body as text, or null when it is over 1 MiB. */
export async function readBody(req: IncomingMessage): Promise<string | null> {
  return (await readBytes(req))?.toString('utf8') ?? null;
}

export interface ServeFakeOptions {
  /** 0 (the default) takes any free port. */
  port?: number;
  /** Answers one request; `url` is the request's, resolved against the fake's address. */
  answer(req: IncomingMessage, url: URL): Promise<HttpAnswer>;
  /** What a request whose `answer` threw gets: the provider's own 500, naming `message`. */
  crashAnswer(message: string): HttpAnswer;
}

/** A fake listening on 127.0.0.1. */
export interface FakeServer {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

function send(res: ServerResponse, answer: HttpAnswer): void {
  if (answer.lost) {
    res.destroy();
    return;
  }
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(Buffer.byteLength(answer.body)) });
  res.end(answer.body);
}

/** Serves `answer` on 127.0.0.1 once listening; a `lost` answer closes the connection unanswered. */
export async function serveFake(options: ServeFakeOptions): Promise<FakeServer> {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const answer = await options.answer(req, new URL(req.url ?? '/', 'http://127.0.0.1'));
    if (!res.destroyed) send(res, answer);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return;
      send(res, options.crashAnswer(error instanceof Error ? error.message : String(error)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
