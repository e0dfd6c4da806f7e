/**
 * What happens to every `/v3/…` request, in order: recorded; authenticated (401); a scripted failure
 * answered instead of the work (failNext); routed (404 for an unknown path, 405 for a wrong method); for a
 * POST, JSON required (415) and the Idempotence-Key checked, replayed or refused; carried out; and, when
 * scripted so, its answer lost (loseNextAnswer).
 */
import type { IncomingMessage } from 'node:http';
import { findRoute, type ApiDeps } from './api-routes.js';
import { checkAuthorization } from './auth.js';
import type { FakeYookassaRequest } from './handle-types.js';
import { bare, header, json, readBody, safeDecode, YookassaApiError, type HttpAnswer } from './http.js';
import { fingerprintOf, requireIdempotenceKey, type IdempotenceStore } from './idempotence.js';
import { errorId } from './ids.js';

/** A request the handle scripted: the next one with this method whose path matches. */
export interface ScriptedRequest {
  method: string;
  pattern: RegExp;
}

export interface ScriptedFailure extends ScriptedRequest {
  error: { status: number; code: string; description?: string };
}

export interface ApiRequestsDeps extends ApiDeps {
  secretKey: string;
  idempotence: IdempotenceStore;
  requests: FakeYookassaRequest[];
  failures: ScriptedFailure[];
  lostAnswers: ScriptedRequest[];
}

const DEFAULT_DESCRIPTIONS: Record<string, string> = {
  internal_server_error: 'Internal server error',
  too_many_requests: 'Too many requests',
};

/** Takes the first scripted request this one matches off the list. */
function takeScripted<T extends ScriptedRequest>(list: T[], method: string, path: string): T | undefined {
  const index = list.findIndex((s) => s.method === method && s.pattern.test(path));
  return index === -1 ? undefined : list.splice(index, 1)[0];
}

/** POST bodies must be JSON; an empty body without a Content-Type (a bare cancel) is let through. */
function isJson(contentType: string | null, body: string): boolean {
  if (contentType === null) return body === '';
  return /^application\/json\s*(;|$)/i.test(contentType.trim());
}

function answerApi(req: IncomingMessage, method: string, url: URL, body: string | null, deps: ApiRequestsDeps): HttpAnswer {
  if (body === null) return bare(413);
  checkAuthorization(header(req, 'authorization'), deps.shopId, deps.secretKey);
  const failure = takeScripted(deps.failures, method, url.pathname);
  if (failure) {
    const { status, code, description } = failure.error;
    return json(status, { type: 'error', id: errorId(), code, description: description ?? DEFAULT_DESCRIPTIONS[code] ?? code });
  }
  const route = findRoute(url.pathname.split('/').slice(2).map(safeDecode), deps);
  if (!route) throw new YookassaApiError(404, 'not_found', 'Not found');
  if (!route.allow.includes(method)) return bare(405, { allow: route.allow.join(', ') });
  if (method !== 'POST') return route.run(method, body, url.searchParams);

  if (!isJson(header(req, 'content-type'), body)) return bare(415);
  const key = requireIdempotenceKey(header(req, 'idempotence-key'));
  const fingerprint = fingerprintOf(method, url.pathname, body);
  const replayed = deps.idempotence.replay(key, fingerprint);
  if (replayed) return replayed;
  const answer = route.run(method, body, url.searchParams);
  deps.idempotence.save(key, fingerprint, answer);
  return answer;
}

/** Answers one `/v3/…` request. */
export async function handleApiRequest(req: IncomingMessage, url: URL, deps: ApiRequestsDeps): Promise<HttpAnswer> {
  const method = (req.method ?? 'GET').toUpperCase();
  const body = await readBody(req);
  deps.requests.push({ method, path: url.pathname, query: url.search.replace(/^\?/, ''), body: body ?? '', idempotenceKey: header(req, 'idempotence-key') });
  let answer: HttpAnswer;
  try {
    answer = answerApi(req, method, url, body, deps);
  } catch (error) {
    if (!(error instanceof YookassaApiError)) throw error;
    answer = error.answer();
  }
  // A lost answer: YooKassa did the work (and keeps it under the key), the caller never hears of it.
  return takeScripted(deps.lostAnswers, method, url.pathname) ? { ...answer, lost: true } : answer;
}
