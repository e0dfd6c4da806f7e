import type { SessionResponse, VerifyResponse } from '../../../shared/auth.js';
import type { HealthResponse, PublicConfig } from '../../../shared/config.js';
import type { AdminUser, UpdateUserBody, UsersFilter } from '../../../shared/users.js';
import type { ApiClient } from './api-client';

/** Every endpoint the web app calls, typed with the shared contract. */
export function createEndpoints(client: ApiClient) {
  return {
    getHealth: () => client.request<HealthResponse>('GET', '/api/health'),
    getConfig: () => client.request<PublicConfig>('GET', '/api/config'),
    getSession: () => client.request<SessionResponse>('GET', '/api/auth/session'),

    auth: {
      /** `locale`: the page's language, which the code e-mail (and the account) will use. */
      requestOtp: (email: string, locale?: string) =>
        client.request<{ sent: true }>('POST', '/api/auth/otp', { body: { email, ...(locale ? { locale } : {}) } }),
      verifyOtp: (email: string, code: string) =>
        client.request<VerifyResponse>('POST', '/api/auth/verify', { body: { email, code } }),
      logout: () => client.request<void>('POST', '/api/auth/logout', { body: { scope: 'local' } }),
    },

    /** The signed-in user's language, for e-mails and the subscription page. */
    updateMyLocale: (locale: string) => client.request<unknown>('PATCH', '/api/me', { body: { locale } }),

    admin: {
      /** One page of users (see AdminUsersQuery): `after` = the last user id of the page before. */
      listUsers: (filter: UsersFilter & { after?: string; limit?: number }, signal?: AbortSignal) => {
        const params = new URLSearchParams();
        if (filter.q?.trim()) params.set('q', filter.q.trim());
        if (filter.role) params.set('role', filter.role);
        if (filter.active) params.set('active', 'true');
        if (filter.pastDue) params.set('pastDue', 'true');
        if (filter.limit) params.set('limit', String(filter.limit));
        if (filter.after) params.set('after', filter.after);
        const query = params.size ? `?${params}` : '';
        return client.request<AdminUser[]>('GET', `/api/admin/users${query}`, { signal });
      },
      updateUser: (id: string, changes: UpdateUserBody) =>
        client.request<AdminUser>('PATCH', `/api/admin/users/${encodeURIComponent(id)}`, { body: changes }),
    },
  };
}

export type Endpoints = ReturnType<typeof createEndpoints>;
