import type { ApiClient, HttpMethod, RequestOptions } from './api-client';

type Listener = () => void;

const listeners = new Set<Listener>();

/**
 * Calls `listener` after every admin save that went through (any request but a GET that succeeded), so what
 * sums up the admin's data elsewhere on screen (the setup checklist) is read again at once. Returns the unsubscribe.
 */
export function onAdminChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `client`, announcing each successful change it sends to the listeners of onAdminChange. */
export function announcingChanges(client: ApiClient): ApiClient {
  return {
    ...client,
    async request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T> {
      const result = await client.request<T>(method, path, options);
      if (method !== 'GET') for (const listener of [...listeners]) listener();
      return result;
    },
  };
}
