import type { MyPasskeys, RegisteredPasskey } from '../../../shared/passkeys.js';
import { apiClient } from './index';

/** WebAuthn options as the server sends them (the browser library's own JSON types). */
type Options = Record<string, unknown> & { challenge: string };

/** The caller's passkeys, and the passkey proof of this session (`docs/api.md`). */
export const passkeyApi = {
  list: (signal?: AbortSignal) => apiClient.request<MyPasskeys>('GET', '/api/me/passkeys', { signal }),
  registrationOptions: () => apiClient.request<Options>('POST', '/api/me/passkeys/registration-options'),
  register: (credential: unknown, name?: string) => apiClient.request<RegisteredPasskey>('POST', '/api/me/passkeys', { body: { credential, name } }),
  remove: (id: string) => apiClient.request<void>('DELETE', `/api/me/passkeys/${encodeURIComponent(id)}`),
  authenticationOptions: () => apiClient.request<Options>('POST', '/api/auth/passkey/options'),
  verify: (credential: unknown) => apiClient.request<{ verified: true }>('POST', '/api/auth/passkey/verify', { body: { credential } }),
  useRecoveryCode: (code: string) => apiClient.request<{ verified: true; recoveryCodesLeft: number }>('POST', '/api/auth/passkey/recovery', { body: { code } }),
};
