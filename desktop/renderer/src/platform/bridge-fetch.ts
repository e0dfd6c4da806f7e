import type { BridgeHttpMethod, BridgeResponse, PlatformBridge } from '../../../../shared/platform-bridge.js';

const METHODS: readonly BridgeHttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/** Statuses whose Response must have no body. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * A `fetch` for the web app's API client that sends each call through the bridge: the main process
 * adds the session and talks to the server, and the answer comes back as a Response, so every
 * endpoint module works unchanged. A server that did not answer rejects like a failed fetch.
 */
export function createBridgeFetch(bridge: Pick<PlatformBridge, 'request'>): typeof fetch {
  return async (input, init = {}) => {
    const signal = init.signal ?? undefined;
    signal?.throwIfAborted();
    const call = {
      method: toMethod(init.method),
      path: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      ...(typeof init.body === 'string' ? { body: JSON.parse(init.body) as unknown } : {}),
    };
    return toResponse(await untilAborted(bridge.request(call), signal));
  };
}

function toMethod(method = 'GET'): BridgeHttpMethod {
  const upper = method.toUpperCase();
  const known = METHODS.find((candidate) => candidate === upper);
  if (!known) throw new TypeError(`Unsupported method ${method}`);
  return known;
}

function toResponse({ status, body }: BridgeResponse): Response {
  if (!Number.isInteger(status) || status < 200 || status > 599) throw new TypeError('The server did not answer.');
  const content = NULL_BODY_STATUSES.has(status) || body === '' ? null : body;
  return new Response(content, { status, headers: content === null ? {} : { 'Content-Type': 'application/json' } });
}

/** The bridge cannot cancel a call, so an aborted one is dropped when its answer arrives. */
function untilAborted<T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return answer;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new DOMException('The request was aborted.', 'AbortError'));
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
