/**
 * A tiny webhook endpoint for the payment fakes' tests: records each request's raw body, headers and JSON,
 * and answers them all with one status (200 unless changed).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPost<P> {
  headers: IncomingHttpHeaders;
  /** The bytes as they arrived: what a signature covers. */
  body: Buffer;
  /** The body parsed, or null when it is not JSON (a forged post may send anything). */
  payload: P | null;
}

export interface WebhookReceiver<P> {
  /** The receiver's address with `path` (any path reaches it). */
  readonly url: string;
  /** Every request so far, in order (tests may empty it). */
  readonly received: ReceivedPost<P>[];
  /** What later requests are answered with. */
  answerWith(status: number): void;
  close(): Promise<void>;
}

function parseJson<P>(body: Buffer): P | null {
  try {
    return JSON.parse(body.toString('utf8')) as P;
  } catch {
    return null;
  }
}

/** `P` is what the sender's payloads look like; nothing checks it. */
export async function startWebhookReceiver<P = unknown>(path: string): Promise<WebhookReceiver<P>> {
  const received: ReceivedPost<P>[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ headers: req.headers, body, payload: parseJson<P>(body) });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answerWith(next) {
      status = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
