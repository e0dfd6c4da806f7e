/** HTTP plumbing of the fake: answers, Greenfield's error shapes, reading requests. */
import type { IncomingMessage } from 'node:http';
import { header, json, type HttpAnswer } from '../fake-http.js';

// Greenfield answers compact JSON with the shared `json`'s content type.
export { html, json, pageNotFound, readBody, redirect, safeDecode, type HttpAnswer } from '../fake-http.js';

export const notFound = (): HttpAnswer => ({ status: 404, body: '', headers: {} });

/** One field's problem in a 422 answer (ValidationProblemDetails: `[{ path, message }]`). */
export interface ValidationProblem {
  path: string;
  message: string;
}

/**
 * An error a route throws; answered in Greenfield's shape: `{ code, message }` (ProblemDetails, plus
 * `missingPermission` on a 403), or the list of validation problems with 422.
 */
export class GreenfieldApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, string> = {},
    readonly problems: ValidationProblem[] | null = null,
  ) {
    super(message);
    this.name = 'GreenfieldApiError';
  }

  answer(): HttpAnswer {
    return json(this.status, this.problems ?? { code: this.code, message: this.message, ...this.extra });
  }
}

/** 422 with one or more field problems (what BTCPay's CreateValidationError answers). */
export const validationError = (...problems: ValidationProblem[]): GreenfieldApiError =>
  new GreenfieldApiError(422, 'validation-error', problems.map((p) => `${p.path}: ${p.message}`).join('; '), {}, problems);

/** 401 for a missing or wrong API key. */
export const unauthenticated = (): GreenfieldApiError =>
  new GreenfieldApiError(401, 'unauthenticated', 'Authentication is required for accessing this endpoint');

/**
 * 403 for a store the key cannot see — BTCPay gives the same answer whether the store exists or not,
 * naming the permission the route needed.
 */
export const missingPermission = (permission: string): GreenfieldApiError =>
  new GreenfieldApiError(
    403,
    'missing-permission',
    `Insufficient API Permissions. Please use an API key with permission "${permission}". You can create an API key in your account's settings / Api Keys.`,
    { missingPermission: permission },
  );

export const invoiceNotFound = (): GreenfieldApiError => new GreenfieldApiError(404, 'invoice-not-found', 'The invoice was not found');

/** The key from `Authorization: token <apiKey>`, or null. */
export function apiKeyOf(req: IncomingMessage): string | null {
  const match = /^token\s+(.+)$/i.exec(header(req, 'authorization') ?? '');
  return match ? match[1]!.trim() : null;
}

/** A JSON request body as an object; a 422 as BTCPay answers an unreadable body. */
export function parseJsonBody(body: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = body.trim() === '' ? {} : JSON.parse(body);
  } catch {
    throw validationError({ path: '', message: 'The request body is not valid JSON' });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw validationError({ path: '', message: 'The request body must be a JSON object' });
  return parsed as Record<string, unknown>;
}
