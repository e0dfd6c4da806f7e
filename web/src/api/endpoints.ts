import type { ReferralInvitation } from '../../../shared/referrals.js';
import type { Me, SessionResponse, VerifyResponse } from '../../../shared/auth.js';
import type { HealthResponse, PublicConfig } from '../../../shared/config.js';
import type { DesktopReleasesResponse } from '../../../shared/desktop-releases.js';
import type { ApiClient } from './api-client';

/** The endpoints every page may call, typed with the shared contract (the admin's are in admin-endpoints.ts, loaded with its pages). */
export function createEndpoints(client: ApiClient) {
  return {
    getHealth: () => client.request<HealthResponse>('GET', '/api/health'),
    getConfig: () => client.request<PublicConfig>('GET', '/api/config'),
    getSession: () => client.request<SessionResponse>('GET', '/api/auth/session'),
    /** The operator's own desktop app as published (download pages). */
    getDesktopReleases: (signal?: AbortSignal) => client.request<DesktopReleasesResponse>('GET', '/api/desktop/releases', { signal }),
    /** Whether the visitor came through a friend's referral link (or, signed in, was referred and has not paid yet), and what it gives. */
    getReferralInvitation: (signal?: AbortSignal) => client.request<ReferralInvitation>('GET', '/api/referrals/invitation', { signal }),

    auth: {
      /** `locale`: the page's language, which the code e-mail (and the account) will use. */
      requestOtp: (email: string, locale?: string) =>
        client.request<{ sent: true }>('POST', '/api/auth/otp', { body: { email, ...(locale ? { locale } : {}) } }),
      /** `referralCode`: a friend's code typed at sign-in (the desktop app, which has no referral link's cookie). */
      verifyOtp: (email: string, code: string, referralCode?: string) =>
        client.request<VerifyResponse>('POST', '/api/auth/verify', { body: { email, code, ...(referralCode ? { referralCode } : {}) } }),
      logout: () => client.request<void>('POST', '/api/auth/logout', { body: { scope: 'local' } }),
    },

    /** A customer without an address (from the Telegram bot) adds one: a code sent to it, then the code back. */
    requestEmailCode: (email: string, locale?: string) =>
      client.request<{ sent: true }>('POST', '/api/me/email', { body: { email, ...(locale ? { locale } : {}) } }),
    confirmEmail: (email: string, code: string) => client.request<Me>('POST', '/api/me/email/confirm', { body: { email, code } }),

    /** The signed-in user's language, for e-mails and the subscription page. */
    updateMyLocale: (locale: string) => client.request<unknown>('PATCH', '/api/me', { body: { locale } }),
  };
}

export type Endpoints = ReturnType<typeof createEndpoints>;
