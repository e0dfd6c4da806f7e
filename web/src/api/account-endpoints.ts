import type { VpnAccount } from '../../../shared/accounts.js';
import type { AccountDevices } from '../../../shared/devices.js';
import type { Plan } from '../../../shared/plans.js';
import type { AdminServer } from '../../../shared/servers.js';
import { apiClient } from './index';

/** `POST /api/admin/accounts` (typed here so the dashboard chunk never loads the zod schema). */
export interface CustomAccountInput {
  serverId: string;
  dataLimitGb: number;
  expireDays: number;
  /** The customer who gets it; the admin when left out. */
  userId?: string;
}

/** The customer's plans and VPN accounts, and the admin's custom-account calls. */
export const accountApi = {
  listPlans: (signal?: AbortSignal) => apiClient.request<Plan[]>('GET', '/api/plans', { signal }),
  listAccounts: (signal?: AbortSignal) => apiClient.request<VpnAccount[]>('GET', '/api/accounts', { signal }),
  createAccount: (planId: string) => apiClient.request<VpnAccount>('POST', '/api/accounts', { body: { planId } }),
  deleteAccount: (id: string) => apiClient.request<void>('DELETE', `/api/accounts/${encodeURIComponent(id)}`),
  /** Renews the account from the balance a day before it ends (or stops); 409 `not_renewable` / `already_renews` when it cannot. */
  setAutoRenewFromWallet: (id: string, enabled: boolean) =>
    apiClient.request<VpnAccount>('POST', `/api/accounts/${encodeURIComponent(id)}/auto-renew`, { body: { enabled } }),
  /** The caller's account's devices (VPN apps that sent a device id when they fetched its subscription), oldest first. */
  listDevices: (accountId: string, signal?: AbortSignal) =>
    apiClient.request<AccountDevices>('GET', `/api/accounts/${encodeURIComponent(accountId)}/devices`, { signal }),
  /** Forgets one device: it no longer counts against the limit (it is added again if it fetches the subscription again). */
  removeDevice: (accountId: string, deviceId: string) =>
    apiClient.request<void>('DELETE', `/api/accounts/${encodeURIComponent(accountId)}/devices/${encodeURIComponent(deviceId)}`),

  admin: {
    listServers: (signal?: AbortSignal) => apiClient.request<AdminServer[]>('GET', '/api/admin/servers', { signal }),
    createAccount: (input: CustomAccountInput) => apiClient.request<VpnAccount>('POST', '/api/admin/accounts', { body: input }),
  },
};
