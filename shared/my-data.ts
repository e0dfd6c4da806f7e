/**
 * What a customer can take and delete of their own (issue 56): `GET /api/me/export` answers everything the store
 * holds about the caller, `DELETE /api/me` erases it. Dates are ISO strings; amounts are minor units of `currency`.
 */
export interface MyDataExport {
  exportedAt: string;
  profile: { id: string; email: string | null; locale: string | null; trialUsed: boolean; createdAt: string };
  /** Where they signed in from: each session's app, browser, address and times. */
  sessions: { client: string; userAgent: string | null; ip: string | null; createdAt: string; lastUsedAt: string; revokedAt: string | null }[];
  /** The passkeys they added (their names and when; never the key itself). */
  passkeys: { name: string; createdAt: string; lastUsedAt: string | null }[];
  accounts: MyDataAccount[];
  subscriptions: {
    id: string;
    status: string;
    billing: string;
    planId: string | null;
    vpnAccountId: string | null;
    currentPeriodStart: string | null;
    currentPeriodEnd: string | null;
    cancelAtPeriodEnd: boolean;
    createdAt: string;
  }[];
  payments: {
    id: string;
    status: string;
    amount: number;
    currency: string;
    discount: number;
    amountRefunded: number;
    createdAt: string;
    refunds: { amount: number; currency: string; status: string; createdAt: string }[];
  }[];
  /** The wallet's ledger: every movement of their balance. */
  wallet: { kind: string; amount: number; currency: string; note: string | null; availableAt: string; createdAt: string }[];
  savedPaymentMethods: { provider: string; title: string; createdAt: string; removedAt: string | null }[];
  referrals: {
    code: string | null;
    /** Friends they invited: never who they are, only what became of each invitation. */
    invited: { status: string; createdAt: string; firstPaidAt: string | null }[];
    invitedBy: { status: string; createdAt: string } | null;
  };
  promoCodes: { amountBefore: number; discount: number; currency: string; createdAt: string }[];
  giftCodes: { redeemedAt: string | null }[];
  telegram: {
    telegramId: string;
    username: string | null;
    firstName: string | null;
    languageCode: string | null;
    noticesByEmail: boolean;
    codesByTelegram: boolean;
    createdAt: string;
  }[];
  /** Sign-ins, refunds, removed devices and the other security events of their account. */
  securityEvents: { action: string; ip: string | null; details: Record<string, unknown>; createdAt: string }[];
}

export interface MyDataAccount {
  id: string;
  username: string;
  status: string;
  planId: string | null;
  expireDate: string | null;
  dataLimit: number;
  deviceLimit: number | null;
  subscriptionUrl: string | null;
  createdAt: string;
  devices: { os: string | null; osVersion: string | null; model: string | null; app: string | null; firstSeenAt: string; lastSeenAt: string }[];
}

/** Why `DELETE /api/me` was refused (409), in the customer's words (translated by the server's catalogue). */
export const MY_DATA_MESSAGES = {
  autoRenewOn: 'A subscription of yours still renews by itself. Turn off its auto-renew first, then delete your account.',
  paymentOpen: 'A payment or refund of yours is still in progress. Try again once it is finished (at most an hour).',
  staffAccount: 'Staff accounts are not deleted here: ask the store owner to remove your access first.',
  panelUnreachable: 'We could not remove your VPN account from its server, so your account was not deleted. Please try again later.',
} as const;
