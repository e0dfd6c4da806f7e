import { type HttpAnswer, json } from '../fake-http.js';
import type { TelegramError } from './errors.js';

/** The server's content type, exactly (HttpConnection.cpp:70). */
const JSON_TYPE = 'application/json';

export function okAnswer(result: unknown, description?: string): HttpAnswer {
  return json(200, description === undefined ? { ok: true, result } : { ok: true, result, description }, JSON_TYPE);
}

export function errorAnswer(error: TelegramError): HttpAnswer {
  const body = { ok: false, error_code: error.code, description: error.description, ...(error.parameters ? { parameters: error.parameters } : {}) };
  const answer = json(error.code, body, JSON_TYPE);
  const retryAfter = error.parameters?.retry_after;
  if (typeof retryAfter === 'number') answer.headers['retry-after'] = String(retryAfter); // HttpConnection.cpp:71-72
  return answer;
}
