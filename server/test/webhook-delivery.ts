import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** How long one delivery attempt may take before it counts as 'error' (both payment fakes). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * POSTs a body once, like one delivery attempt of a payment provider's webhook: no redirects followed,
 * a 10 s limit, the answer read and discarded. Resolves to the HTTP status, or 'error' (refused, reset,
 * timed out, aborted through `signal`); never rejects.
 */
export function postOnce(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<number | 'error'> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve('error');
      return;
    }
    if (signal?.aborted || (target.protocol !== 'http:' && target.protocol !== 'https:')) {
      resolve('error');
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { method: 'POST', agent: false, signal, headers: { ...headers, 'content-length': Buffer.byteLength(body) } });
    const timer = setTimeout(() => req.destroy(new Error('webhook delivery timed out')), DELIVERY_TIMEOUT_MS);
    const finish = (result: number | 'error'): void => {
      clearTimeout(timer);
      resolve(result);
    };
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => finish(res.statusCode ?? 'error'));
      res.on('error', () => finish('error'));
    });
    req.on('error', () => finish('error'));
    req.end(body);
  });
}
