/** HTTP plumbing of the fake: answers, YooKassa's error body, reading requests. */
import { json as jsonAnswer, type HttpAnswer } from '../fake-http.js';
import { errorId } from './ids.js';
import type { YookassaError } from './yookassa-objects.js';

export { header, html, pageNotFound, readBody, redirect, safeDecode, type HttpAnswer } from '../fake-http.js';

/** YooKassa answers compact JSON with this content type. */
export const json = (status: number, data: unknown): HttpAnswer => jsonAnswer(status, data, 'application/json;charset=UTF-8');

/** 405 and 415 come without a JSON error code (YooKassa's table lists none for them). */
export const bare = (status: number, headers: Record<string, string> = {}): HttpAnswer => ({ status, body: '', headers });

/**
 * An error a route throws, answered as `{ type: "error", id, code, description, parameter? }` with a fresh id
 * (the id support would ask for).
 */
export class YookassaApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly parameter?: string,
  ) {
    super(description);
    this.name = 'YookassaApiError';
  }

  answer(): HttpAnswer {
    const body: YookassaError = { type: 'error', id: errorId(), code: this.code, description: this.description };
    if (this.parameter !== undefined) body.parameter = this.parameter;
    return json(this.status, body);
  }
}

/** 400 invalid_request: validation and status-conflict errors. */
export const invalidRequest = (description: string, parameter?: string): YookassaApiError =>
  new YookassaApiError(400, 'invalid_request', description, parameter);

/** YooKassa's generic text for a parameter that is present but wrong. */
export const invalidParameter = (parameter: string): YookassaApiError => invalidRequest('Invalid request parameter', parameter);

export const notFound = (description: string): YookassaApiError => new YookassaApiError(404, 'not_found', description);

/** A JSON request body as an object (an empty body is `{}`, as for cancel); 400 as YooKassa answers an unreadable one. */
export function parseJsonBody(body: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = body.trim() === '' ? {} : JSON.parse(body);
  } catch {
    throw invalidRequest('Failed to parse request body');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidRequest('Failed to parse request body');
  return parsed as Record<string, unknown>;
}
