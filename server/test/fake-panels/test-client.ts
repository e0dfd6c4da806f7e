import type { FakePanel } from './types.js';

/** Plain-fetch helpers the fake-panel tests share. */

export interface Reply {
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when not JSON); `any` so tests can read panel fields directly. */
  body: any;
}

export async function call(
  panel: FakePanel,
  method: string,
  path: string,
  options: { token?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body = options.body;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const res = await fetch(`${panel.url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', headers: res.headers, text, body: parsed };
}

export function loginForm(username: string, password: string): { body: string; headers: Record<string, string> } {
  return {
    body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

/** Logs in with the panel's admin and returns the access token. */
export async function login(panel: FakePanel, tokenPath: string): Promise<string> {
  const reply = await call(panel, 'POST', tokenPath, loginForm(panel.admin.username, panel.admin.password));
  if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.text}`);
  return reply.body.access_token as string;
}

export function decodeJwtPart(token: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const fromBase64 = (value: string): string => Buffer.from(value, 'base64').toString('utf8');
