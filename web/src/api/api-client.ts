import { createNetworkError, createResponseError, ApiError, CLIENT_ERROR_CODES } from './api-error';
import { apiLanguage, clientMessage } from './language';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** Prefix for every path; '' means the page's own origin (the web app). */
  baseUrl?: string;
  /** 'same-origin' sends the server's httpOnly session cookies (web); 'omit' for bearer transports. */
  credentials?: RequestCredentials;
  /** Extra headers per request, e.g. `Authorization: Bearer …` for the desktop app. */
  getHeaders?: () => Record<string, string> | Promise<Record<string, string>>;
  /**
   * Renews the session after a 401 and reports whether it worked. The default posts to
   * `/api/auth/refresh`, which rotates the cookies; a bearer transport supplies its own.
   */
  refreshSession?: (client: ApiTransport) => Promise<boolean>;
  fetch?: typeof fetch;
}

/** The raw transport: one request, no refresh and no retry. */
export interface ApiTransport {
  send(method: HttpMethod, path: string, options?: RequestOptions): Promise<Response>;
}

export interface ApiClient {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  /** Called when a 401 could not be fixed by a refresh: the session is gone. */
  onSessionExpired(listener: () => void): () => void;
}

const AUTH_PATH_PREFIX = '/api/auth/';
const REFRESH_PATH = '/api/auth/refresh';

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const {
    baseUrl = '',
    credentials = 'same-origin',
    getHeaders,
    refreshSession = refreshWithCookie,
    fetch: fetchImpl = (...args) => globalThis.fetch(...args),
  } = options;
  const expiredListeners = new Set<() => void>();
  let pendingRefresh: Promise<boolean> | null = null;

  const transport: ApiTransport = {
    async send(method, path, { body, signal } = {}) {
      const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': apiLanguage(), ...(await getHeaders?.()) };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      try {
        return await fetchImpl(baseUrl + path, {
          method,
          headers,
          credentials,
          signal,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw createNetworkError();
      }
    },
  };

  /** Concurrent 401s share one refresh call. */
  function refreshOnce(): Promise<boolean> {
    pendingRefresh ??= refreshSession(transport)
      .catch(() => false)
      .finally(() => {
        pendingRefresh = null;
      });
    return pendingRefresh;
  }

  async function request<T>(method: HttpMethod, path: string, requestOptions: RequestOptions = {}): Promise<T> {
    let response = await transport.send(method, path, requestOptions);
    if (response.status === 401 && !path.startsWith(AUTH_PATH_PREFIX)) {
      if (await refreshOnce()) {
        response = await transport.send(method, path, requestOptions);
      }
      if (response.status === 401) expiredListeners.forEach((listener) => listener());
    }
    const value = await readResponse<T>(response);
    // Aborted while the body was read (it then reads as empty): rejected, as fetch rejects an aborted request.
    requestOptions.signal?.throwIfAborted();
    return value;
  }

  return {
    request,
    onSessionExpired(listener) {
      expiredListeners.add(listener);
      return () => expiredListeners.delete(listener);
    },
  };
}

async function refreshWithCookie(transport: ApiTransport): Promise<boolean> {
  const response = await transport.send('POST', REFRESH_PATH);
  return response.ok;
}

async function readResponse<T>(response: Response): Promise<T> {
  const text = await response.text().catch(() => '');
  const parsed = parseJson(text);
  if (!response.ok) throw createResponseError(response.status, parsed.ok ? parsed.value : undefined);
  if (!parsed.ok) {
    throw new ApiError(response.status, CLIENT_ERROR_CODES.internal, clientMessage('unexpected'));
  }
  return parsed.value as T;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
