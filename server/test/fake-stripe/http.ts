/** HTTP plumbing of the fake: answers, the API request context, reading requests. */
import type { IncomingMessage } from 'node:http';
import { header, type HttpAnswer } from '../fake-http.js';
import type { FormHash } from './form-body.js';
import type { EventRequest } from './webhooks.js';

export { header, html, pageNotFound, readBody, redirect, safeDecode, type HttpAnswer } from '../fake-http.js';

/** One API request as a route sees it. */
export interface ApiContext {
  requestId: string;
  idempotencyKey: string | null;
  /** The decoded form body (POST) or query string (GET). */
  params: FormHash;
  /** The request's `Stripe-Version` (the SDK's own version when the header is absent). */
  apiVersion: string;
}

/** Stripe pretty-prints its JSON answers with two spaces. */
export function json(status: number, data: unknown, headers: Record<string, string> = {}): HttpAnswer {
  return { status, body: `${JSON.stringify(data, null, 2)}\n`, headers: { 'content-type': 'application/json', ...headers } };
}

/** The `request` an event caused by this API request carries. */
export function eventRequest(ctx: ApiContext): EventRequest {
  return { id: ctx.requestId, idempotency_key: ctx.idempotencyKey };
}

/** The key from `Authorization: Bearer sk_…` (or Basic with the key as user name, which Stripe also accepts). */
export function apiKeyOf(req: IncomingMessage): string | null {
  const authorization = header(req, 'authorization');
  if (!authorization) return null;
  const bearer = /^Bearer\s+(.+)$/i.exec(authorization);
  if (bearer) return bearer[1]!.trim();
  const basic = /^Basic\s+(.+)$/i.exec(authorization);
  if (basic) return Buffer.from(basic[1]!, 'base64').toString('utf8').split(':')[0] ?? '';
  return authorization;
}
