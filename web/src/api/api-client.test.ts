import { describe, expect, it } from 'vitest';
import { createApiClient } from './api-client';

/** A response whose body stops being readable once `signal` aborts (as a browser's does when the page moves on). */
function cutShort(signal: AbortSignal, body: string): Response {
  return {
    status: 200,
    ok: true,
    text: () => (signal.aborted ? Promise.reject(new DOMException('The operation was aborted.', 'AbortError')) : Promise.resolve(body)),
  } as Response;
}

describe('the API client', () => {
  it('answers the parsed body of a request that finishes', async () => {
    const controller = new AbortController();
    const client = createApiClient({ fetch: async () => cutShort(controller.signal, '{"balance":500}') });
    await expect(client.request('GET', '/api/wallet', { signal: controller.signal })).resolves.toEqual({ balance: 500 });
  });

  it('rejects a request aborted while its body was read, instead of answering nothing', async () => {
    const controller = new AbortController();
    const client = createApiClient({
      fetch: async () => {
        controller.abort();
        return cutShort(controller.signal, '{"balance":500}');
      },
    });
    await expect(client.request('GET', '/api/wallet', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
