import { fetch } from 'undici';
import { panelConnections } from './panel-connections.js';
import { PanelError } from './panel-driver.js';

export const PANEL_TIMEOUT_MS = 10_000;
const SNIPPET_BYTES = 500;

export interface PanelResponse {
  status: number;
  /** Parsed JSON when the panel said application/json; otherwise undefined. */
  json: unknown;
  /** The whole body as text. */
  text: string;
  contentType: string;
  headers: Headers;
}

export interface PanelRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string;
  timeoutMs?: number;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function causeCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: string } }).cause;
  return cause?.code ?? (err as { code?: string }).code;
}

/**
 * One HTTP call to a panel: always with a time limit, network failures mapped to `unreachable`,
 * a late answer to `timeout`, and the body parsed as JSON only when the panel says it is JSON.
 */
export async function panelFetch(url: string, request: PanelRequest): Promise<PanelResponse> {
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(url, {
      dispatcher: panelConnections,
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(request.timeoutMs ?? PANEL_TIMEOUT_MS),
      redirect: 'manual',
    });
  } catch (err) {
    const name = (err as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError')
      throw new PanelError('timeout', `The panel did not answer within ${Math.round((request.timeoutMs ?? PANEL_TIMEOUT_MS) / 1000)} s`);
    const code = causeCode(err);
    if (code === undefined || NETWORK_CODES.has(code) || err instanceof TypeError) {
      throw new PanelError('unreachable', `The panel could not be reached${code ? ` (${code})` : ''}`);
    }
    throw err;
  }

  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new PanelError('unreachable', 'The panel closed the connection before answering');
  }
  const contentType = response.headers.get('content-type') ?? '';
  let json: unknown;
  if (contentType.includes('application/json') && text !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw new PanelError('invalid_response', `The panel sent broken JSON: ${text.slice(0, SNIPPET_BYTES)}`, response.status);
    }
  }
  return { status: response.status, json, text, contentType, headers: response.headers };
}

/** The `detail` of a FastAPI error body (string or field map), or the text of a non-JSON answer. */
export function describeFailure(response: PanelResponse): string {
  const detail = (response.json as { detail?: unknown } | undefined)?.detail;
  if (typeof detail === 'string') return detail;
  if (detail && typeof detail === 'object') {
    return Object.entries(detail as Record<string, unknown>)
      .map(([field, problem]) => `${field}: ${String(problem)}`)
      .join('; ');
  }
  return response.text.trim().slice(0, SNIPPET_BYTES) || `HTTP ${response.status}`;
}

export function detailOf(response: PanelResponse): string | undefined {
  const detail = (response.json as { detail?: unknown } | undefined)?.detail;
  return typeof detail === 'string' ? detail : undefined;
}

/** Maps an unexpected answer to the PanelError a caller can act on. */
export function failureFor(response: PanelResponse, action: string): PanelError {
  const reason = describeFailure(response);
  if (response.status === 401 || response.status === 403) return new PanelError('auth', `${action}: ${reason}`, response.status);
  if (response.status === 404 && detailOf(response) === 'Not Found') {
    return new PanelError('wrong_url', `${action}: the panel has no such route (wrong URL or panel kind?)`, 404);
  }
  if (response.status >= 500) return new PanelError('server_error', `${action}: ${reason}`, response.status);
  return new PanelError('rejected', `${action}: ${reason}`, response.status);
}

export function expectJsonObject(response: PanelResponse, action: string): Record<string, unknown> {
  if (response.json === null || typeof response.json !== 'object') {
    throw new PanelError(
      'invalid_response',
      `${action}: expected JSON, got ${response.contentType || 'no content type'}: ${response.text.slice(0, SNIPPET_BYTES)}`,
      response.status,
    );
  }
  return response.json as Record<string, unknown>;
}
