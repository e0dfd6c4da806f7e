import type { SessionResponse, VerifyResponse } from '../../../shared/auth.js';
import type { HealthResponse, PublicConfig } from '../../../shared/config.js';
import type { AdminUser, UpdateUserBody } from '../../../shared/users.js';
import type { ApiClient } from './api-client';

/** Every endpoint the web app calls, typed with the shared contract. */
export function createEndpoints(client: ApiClient) {
  return {
    getHealth: () => client.request<HealthResponse>('GET', '/api/health'),
    getConfig: () => client.request<PublicConfig>('GET', '/api/config'),
    getSession: () => client.request<SessionResponse>('GET', '/api/auth/session'),

    auth: {
      requestOtp: (email: string) =>
        client.request<{ sent: true }>('POST', '/api/auth/otp', { body: { email } }),
      verifyOtp: (email: string, code: string) =>
        client.request<VerifyResponse>('POST', '/api/auth/verify', { body: { email, code } }),
      logout: () => client.request<void>('POST', '/api/auth/logout', { body: { scope: 'local' } }),
    },

    admin: {
      listUsers: (q: string, signal?: AbortSignal) => {
        const query = q.trim() ? `?${new URLSearchParams({ q: q.trim() })}` : '';
        return client.request<AdminUser[]>('GET', `/api/admin/users${query}`, { signal });
      },
      updateUser: (id: string, changes: UpdateUserBody) =>
        client.request<AdminUser>('PATCH', `/api/admin/users/${encodeURIComponent(id)}`, { body: changes }),
    },
  };
}

export type Endpoints = ReturnType<typeof createEndpoints>;
