import type { z } from 'zod';
import type { AddOn, AddOnBody, AddOnPatchBody } from '../../../shared/add-ons.js';
import type { AdminGiftBatch, CreateGiftCodesBody, GiftBatchCreated } from '../../../shared/gift-codes.js';
import type { AdminPromoCode, CreatePromoCodeBody, UpdatePromoCodeBody } from '../../../shared/promo-codes.js';
import type { AdminReferralsPage, ReferralSettings, ReferralStatus, UpdateReferralSettingsBody } from '../../../shared/referrals.js';
import type { AccountLogEntry, SystemStatus, VpnAccount } from '../../../shared/accounts.js';
import type { AccountDevices } from '../../../shared/devices.js';
import type { AuditLogPage } from '../../../shared/audit.js';
import type { AdminUser, AdminUserPage, ExtendAccountBody, SetStaffRoleBody, UpdateUserBody, UsersFilter } from '../../../shared/users.js';
import type { AdminSettings, UpdateSettingsBody } from '../../../shared/app-settings.js';
import type { TelegramSettings, UpdateTelegramBody } from '../../../shared/telegram.js';
import type { CreateBroadcastBody, TelegramBroadcast } from '../../../shared/telegram-broadcasts.js';
import type {
  AdminCancelSubscription,
  AdminSubscription,
  AdminTransaction,
  CardPaymentSettings,
  CryptoPaymentSettings,
  CryptopayPaymentSettings,
  YookassaPaymentSettings,
  SubscriptionStatus,
  TransactionStatus,
  UpdateCardPaymentSettings,
  EndAccountSubscriptionsResult,
  ProviderAccountSummary,
  AdminRevenue,
} from '../../../shared/billing.js';
import type {
  TransactionMethod,
  RefundBody,
  UpdateCryptopayPaymentBody,
  UpdateCryptoPaymentBody,
  UpdateYookassaPaymentBody,
} from '../../../shared/billing-schemas.js';
import type { AdminOverview, OverviewRange } from '../../../shared/overview.js';
import type { AdminPlan, PlanBody, UpdatePlanBody } from '../../../shared/plans.js';
import type { SetupChecklist } from '../../../shared/setup.js';
import type { AdminWallet, WalletAdjustmentBody } from '../../../shared/wallet.js';
import type { AdminServer, CreateServerBody, ServerConnectionBody, UpdateServerBody } from '../../../shared/servers.js';
import type { ImportPanelUsersBody, ImportResult, PanelUsersPage } from '../../../shared/panel-import.js';
import { announcingChanges } from './admin-changes';
import type { ApiClient } from './api-client';
import { apiClient } from './index';

/** A service (inbound group) on a panel, offered as the server's `serviceId`. */
export interface PanelService {
  id: string;
  name: string;
}

const serverPath = (id: string) => `/api/admin/servers/${encodeURIComponent(id)}`;
const planPath = (id: string) => `/api/admin/plans/${encodeURIComponent(id)}`;
const addOnPath = (id: string) => `/api/admin/add-ons/${encodeURIComponent(id)}`;
const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;
const accountPath = (id: string) => `/api/admin/accounts/${encodeURIComponent(id)}`;

/** `GET /api/admin/subscriptions` filters: a status, part of the customer's e-mail, only those the provider cannot be asked about (all optional). */
export interface AdminSubscriptionFilter {
  status: SubscriptionStatus | null;
  email: string;
  unreadable?: boolean;
}

function subscriptionsQuery({ status, email, unreadable }: AdminSubscriptionFilter): string {
  const params = new URLSearchParams();
  if (status) params.set('status', status);
  if (email.trim()) params.set('email', email.trim());
  if (unreadable) params.set('unreadable', 'true');
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** The admin panel's endpoints (servers, plans, settings, card payments, logs, system), typed with the shared contract. */
export function createAdminEndpoints(client: ApiClient) {
  return {
    servers: {
      list: (signal?: AbortSignal) => client.request<AdminServer[]>('GET', '/api/admin/servers', { signal }),
      testConnection: (body: ServerConnectionBody) => client.request<{ services: PanelService[] }>('POST', '/api/admin/servers/test', { body }),
      create: (body: CreateServerBody) => client.request<AdminServer>('POST', '/api/admin/servers', { body }),
      update: (id: string, changes: UpdateServerBody) => client.request<AdminServer>('PATCH', serverPath(id), { body: changes }),
      remove: (id: string) => client.request<void>('DELETE', serverPath(id)),
      enable: (id: string) => client.request<AdminServer>('POST', `${serverPath(id)}/enable`),
      disable: (id: string) => client.request<AdminServer>('POST', `${serverPath(id)}/disable`),
      listServices: (id: string) => client.request<PanelService[]>('GET', `${serverPath(id)}/services`),
      listPanelUsers: (id: string, query: { page: number; size: number; unlinked: boolean }) =>
        client.request<PanelUsersPage>('GET', `${serverPath(id)}/panel-users?page=${query.page}&size=${query.size}&unlinked=${query.unlinked}`),
      importUsers: (id: string, body: ImportPanelUsersBody) => client.request<ImportResult>('POST', `${serverPath(id)}/import`, { body }),
    },

    promoCodes: {
      list: (signal?: AbortSignal) => client.request<AdminPromoCode[]>('GET', '/api/admin/promo-codes', { signal }),
      create: (body: CreatePromoCodeBody) => client.request<AdminPromoCode>('POST', '/api/admin/promo-codes', { body }),
      update: (id: string, changes: UpdatePromoCodeBody) =>
        client.request<AdminPromoCode>('PATCH', `/api/admin/promo-codes/${encodeURIComponent(id)}`, { body: changes }),
      remove: (id: string) => client.request<void>('DELETE', `/api/admin/promo-codes/${encodeURIComponent(id)}`),
    },

    giftCodes: {
      list: (signal?: AbortSignal) => client.request<AdminGiftBatch[]>('GET', '/api/admin/gift-codes', { signal }),
      create: (body: CreateGiftCodesBody) => client.request<GiftBatchCreated>('POST', '/api/admin/gift-codes', { body }),
      revokeUnused: (id: string) => client.request<AdminGiftBatch>('POST', `/api/admin/gift-codes/${encodeURIComponent(id)}/revoke`),
      /** The batch's codes as a CSV download (an ordinary link: the session cookie goes with it). */
      csvUrl: (id: string) => `/api/admin/gift-codes/${encodeURIComponent(id)}/csv`,
    },

    referrals: {
      list: (status?: ReferralStatus, signal?: AbortSignal) =>
        client.request<AdminReferralsPage>('GET', `/api/admin/referrals${status ? `?status=${status}` : ''}`, { signal }),
      saveSettings: (body: UpdateReferralSettingsBody) => client.request<ReferralSettings>('PUT', '/api/admin/referrals/settings', { body }),
      release: (id: string) => client.request<void>('POST', `/api/admin/referrals/${encodeURIComponent(id)}/release`),
      void: (id: string) => client.request<void>('POST', `/api/admin/referrals/${encodeURIComponent(id)}/void`),
    },

    /** Add-ons sold on top of a plan (oldest first); DELETE is 409 `add_on_in_use` once an account bought one. */
    addOns: {
      list: (signal?: AbortSignal) => client.request<AddOn[]>('GET', '/api/admin/add-ons', { signal }),
      /** `translations`, `appliesTo`, `until` and `status` may be left out (the server's defaults). */
      create: (body: z.input<typeof AddOnBody>) => client.request<AddOn>('POST', '/api/admin/add-ons', { body }),
      update: (id: string, changes: AddOnPatchBody) => client.request<AddOn>('PATCH', addOnPath(id), { body: changes }),
      remove: (id: string) => client.request<void>('DELETE', addOnPath(id)),
    },

    plans: {
      list: (signal?: AbortSignal) => client.request<AdminPlan[]>('GET', '/api/admin/plans', { signal }),
      create: (body: PlanBody) => client.request<AdminPlan>('POST', '/api/admin/plans', { body }),
      update: (id: string, changes: UpdatePlanBody) => client.request<AdminPlan>('PATCH', planPath(id), { body: changes }),
      remove: (id: string) => client.request<void>('DELETE', planPath(id)),
    },

    settings: {
      get: (signal?: AbortSignal) => client.request<AdminSettings>('GET', '/api/admin/settings', { signal }),
      update: (changes: UpdateSettingsBody) => client.request<AdminSettings>('PUT', '/api/admin/settings', { body: changes }),
    },

    telegram: {
      get: (signal?: AbortSignal) => client.request<TelegramSettings>('GET', '/api/admin/telegram', { signal }),
      /** Omitted fields keep their value; a new token is checked with getMe, and the webhook (or polling) is set at Telegram. */
      update: (changes: UpdateTelegramBody) => client.request<TelegramSettings>('PUT', '/api/admin/telegram', { body: changes }),
      broadcasts: (signal?: AbortSignal) => client.request<TelegramBroadcast[]>('GET', '/api/admin/telegram/broadcasts', { signal }),
      previewBroadcast: (body: Pick<CreateBroadcastBody, 'audience' | 'locale'>, signal?: AbortSignal) =>
        client.request<{ recipients: number }>('POST', '/api/admin/telegram/broadcasts/preview', { body, signal }),
      sendBroadcast: (body: CreateBroadcastBody) => client.request<TelegramBroadcast>('POST', '/api/admin/telegram/broadcasts', { body }),
      cancelBroadcast: (id: string) => client.request<TelegramBroadcast>('POST', `/api/admin/telegram/broadcasts/${encodeURIComponent(id)}/cancel`),
    },

    payments: {
      getCard: (signal?: AbortSignal) => client.request<CardPaymentSettings>('GET', '/api/admin/payments/card', { signal }),
      /** Omitted fields keep their value; `null` clears a key. The secrets never come back. */
      updateCard: (changes: UpdateCardPaymentSettings) => client.request<CardPaymentSettings>('PUT', '/api/admin/payments/card', { body: changes }),
      getCrypto: (signal?: AbortSignal) => client.request<CryptoPaymentSettings>('GET', '/api/admin/payments/crypto', { signal }),
      /** Omitted fields keep their value; `null` clears a secret. New connection details are tested by reading the store. */
      updateCrypto: (changes: UpdateCryptoPaymentBody) => client.request<CryptoPaymentSettings>('PUT', '/api/admin/payments/crypto', { body: changes }),
      getYookassa: (signal?: AbortSignal) => client.request<YookassaPaymentSettings>('GET', '/api/admin/payments/yookassa', { signal }),
      /** Omitted fields keep their value; `null` clears the secret key. New keys are checked by reading the shop. */
      updateYookassa: (changes: UpdateYookassaPaymentBody) => client.request<YookassaPaymentSettings>('PUT', '/api/admin/payments/yookassa', { body: changes }),
      getCryptopay: (signal?: AbortSignal) => client.request<CryptopayPaymentSettings>('GET', '/api/admin/payments/cryptopay', { signal }),
      /** Omitted fields keep their value; `null` clears the token. A new token is checked with getMe. */
      updateCryptopay: (changes: UpdateCryptopayPaymentBody) =>
        client.request<CryptopayPaymentSettings>('PUT', '/api/admin/payments/cryptopay', { body: changes }),
      /** Payments, newest first: of one status, and settled one way (`wallet`: from the balance; `gift_code`: a code redeemed), when given. */
      listTransactions: (filter: { status: TransactionStatus | null; method: TransactionMethod | null }, signal?: AbortSignal) => {
        const query = new URLSearchParams({
          ...(filter.status ? { status: filter.status } : {}),
          ...(filter.method ? { method: filter.method } : {}),
        }).toString();
        return client.request<AdminTransaction[]>('GET', `/api/admin/transactions${query ? `?${query}` : ''}`, { signal });
      },
      /** What each provider took, per currency, over the last `days` days. */
      revenue: (days: number, signal?: AbortSignal) => client.request<AdminRevenue>('GET', `/api/admin/payments/revenue?days=${days}`, { signal }),
      /** The whole remaining amount unless `amount` (cents) is given; sent once per click (the server's idempotency key covers retries). */
      refund: (id: string, body: Partial<RefundBody>) =>
        client.request<AdminTransaction>('POST', `/api/admin/transactions/${encodeURIComponent(id)}/refund`, { body }),
      /** Recurring subscriptions, newest first. */
      listSubscriptions: (filter: AdminSubscriptionFilter, signal?: AbortSignal) =>
        client.request<AdminSubscription[]>('GET', `/api/admin/subscriptions${subscriptionsQuery(filter)}`, { signal }),
      /** Ends a subscription now, or turns its auto-renew off so it ends with its paid period. */
      cancelSubscription: (id: string, body: AdminCancelSubscription) =>
        client.request<AdminSubscription>('POST', `/api/admin/subscriptions/${encodeURIComponent(id)}/cancel`, { body }),
      /** The provider accounts that took payments, with the subscriptions each still bills. */
      listAccounts: (signal?: AbortSignal) => client.request<ProviderAccountSummary[]>('GET', '/api/admin/payments/accounts', { signal }),
      /** Ends, at its period end, every subscription an account switched away from would charge again. */
      endAccountSubscriptions: (id: string) =>
        client.request<EndAccountSubscriptionsResult>('POST', `/api/admin/payments/accounts/${encodeURIComponent(id)}/end-subscriptions`, {
          body: { when: 'period_end' },
        }),
    },

    users: {
      /** One page of users (see AdminUsersQuery): `after` = the last user id of the page before. */
      list: (filter: UsersFilter & { after?: string; limit?: number }, signal?: AbortSignal) => {
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
      update: (id: string, changes: UpdateUserBody) => client.request<AdminUser>('PATCH', userPath(id), { body: changes }),
      /** One customer in one place: accounts, subscriptions, transactions, audit entries, sessions. */
      page: (id: string, signal?: AbortSignal) => client.request<AdminUserPage>('GET', userPath(id), { signal }),
      signOutEverywhere: (id: string) => client.request<{ revoked: number }>('POST', `${userPath(id)}/sign-out`),
      /** A new sign-in code to the customer's own address (support helping someone who lost theirs). */
      sendSignInCode: (id: string) => client.request<{ sent: true }>('POST', `${userPath(id)}/send-code`),
      /** The customer's balance and latest movements. */
      wallet: (id: string, signal?: AbortSignal) => client.request<AdminWallet>('GET', `${userPath(id)}/wallet`, { signal }),
      /** Money in (positive) or out (negative), with why; audited. 409 `insufficient_balance` below zero. */
      adjustWallet: (id: string, body: WalletAdjustmentBody) => client.request<AdminWallet>('POST', `${userPath(id)}/wallet`, { body }),
    },

    /** The owner's Staff section: everyone with a staff role, and giving (or taking) one by e-mail. */
    staff: {
      list: (signal?: AbortSignal) => client.request<AdminUser[]>('GET', '/api/admin/staff', { signal }),
      setRole: (body: SetStaffRoleBody) => client.request<AdminUser>('PUT', '/api/admin/staff', { body }),
    },

    /** The user page's account actions: each acts on the panel, then here, and is audited. */
    accounts: {
      extend: (id: string, body: ExtendAccountBody) => client.request<VpnAccount>('POST', `${accountPath(id)}/extend`, { body }),
      resetUsage: (id: string) => client.request<VpnAccount>('POST', `${accountPath(id)}/reset-usage`),
      setEnabled: (id: string, enabled: boolean) => client.request<VpnAccount>('POST', `${accountPath(id)}/${enabled ? 'enable' : 'disable'}`),
      remove: (id: string) => client.request<void>('DELETE', accountPath(id)),
      /** Any customer's account's devices, as its owner sees them. */
      listDevices: (id: string, signal?: AbortSignal) => client.request<AccountDevices>('GET', `${accountPath(id)}/devices`, { signal }),
      removeDevice: (id: string, deviceId: string) => client.request<void>('DELETE', `${accountPath(id)}/devices/${encodeURIComponent(deviceId)}`),
    },

    /** The Audit section: a page of the audit log (`before`: the previous page's `nextCursor`), and the same filters as CSV. */
    audit: {
      list: (query: string, signal?: AbortSignal) => client.request<AuditLogPage>('GET', `/api/admin/audit${query ? `?${query}` : ''}`, { signal }),
      exportUrl: (query: string) => `/api/admin/audit/export${query ? `?${query}` : ''}`,
    },

    listLogs: (limit: number, signal?: AbortSignal) =>
      client.request<AccountLogEntry[]>('GET', `/api/admin/logs?${new URLSearchParams({ limit: String(limit) })}`, { signal }),

    getSystem: (signal?: AbortSignal) => client.request<SystemStatus>('GET', '/api/admin/system', { signal }),

    /** What is left to set up (brand, support address, a server, a plan). */
    getSetup: (signal?: AbortSignal) => client.request<SetupChecklist>('GET', '/api/admin/setup', { signal }),

    /** Signups, trials, revenue, active accounts and traffic per UTC day of the last `days` days. */
    getOverview: (days: OverviewRange, signal?: AbortSignal) =>
      client.request<AdminOverview>('GET', `/api/admin/overview?${new URLSearchParams({ days: String(days) })}`, { signal }),
  };
}

export type AdminEndpoints = ReturnType<typeof createAdminEndpoints>;

/** Every save through it is announced (admin-changes.ts): the setup checklist follows it without a reload. */
export const adminApi = createAdminEndpoints(announcingChanges(apiClient));
