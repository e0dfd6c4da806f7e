import { z } from 'zod';
import type { MyDataExport } from '../../../shared/my-data.js';

/** `GET /api/me/export`: everything the store holds about the caller (shared/my-data.ts). */
const when = z.string();
const whenOrNull = z.string().nullable();

const AccountAnswer = z.object({
  id: z.string(),
  username: z.string(),
  status: z.string(),
  planId: z.string().nullable(),
  expireDate: whenOrNull,
  dataLimit: z.number(),
  deviceLimit: z.number().nullable(),
  subscriptionUrl: z.string().nullable(),
  createdAt: when,
  devices: z.array(
    z.object({
      os: z.string().nullable(),
      osVersion: z.string().nullable(),
      model: z.string().nullable(),
      app: z.string().nullable(),
      firstSeenAt: when,
      lastSeenAt: when,
    }),
  ),
});

export const MyDataExportAnswer = z.object({
  exportedAt: when,
  profile: z.object({ id: z.string(), email: z.string().nullable(), locale: z.string().nullable(), trialUsed: z.boolean(), createdAt: when }),
  sessions: z.array(
    z.object({ client: z.string(), userAgent: z.string().nullable(), ip: z.string().nullable(), createdAt: when, lastUsedAt: when, revokedAt: whenOrNull }),
  ),
  passkeys: z.array(z.object({ name: z.string(), createdAt: when, lastUsedAt: whenOrNull })),
  accounts: z.array(AccountAnswer),
  subscriptions: z.array(
    z.object({
      id: z.string(),
      status: z.string(),
      billing: z.string(),
      planId: z.string().nullable(),
      vpnAccountId: z.string().nullable(),
      currentPeriodStart: whenOrNull,
      currentPeriodEnd: whenOrNull,
      cancelAtPeriodEnd: z.boolean(),
      createdAt: when,
    }),
  ),
  payments: z.array(
    z.object({
      id: z.string(),
      status: z.string(),
      amount: z.number(),
      currency: z.string(),
      discount: z.number(),
      amountRefunded: z.number(),
      createdAt: when,
      refunds: z.array(z.object({ amount: z.number(), currency: z.string(), status: z.string(), createdAt: when })),
    }),
  ),
  wallet: z.array(z.object({ kind: z.string(), amount: z.number(), currency: z.string(), note: z.string().nullable(), availableAt: when, createdAt: when })),
  savedPaymentMethods: z.array(z.object({ provider: z.string(), title: z.string(), createdAt: when, removedAt: whenOrNull })),
  referrals: z.object({
    code: z.string().nullable(),
    invited: z.array(z.object({ status: z.string(), createdAt: when, firstPaidAt: whenOrNull })),
    invitedBy: z.object({ status: z.string(), createdAt: when }).nullable(),
  }),
  promoCodes: z.array(z.object({ amountBefore: z.number(), discount: z.number(), currency: z.string(), createdAt: when })),
  giftCodes: z.array(z.object({ redeemedAt: whenOrNull })),
  telegram: z.array(
    z.object({
      telegramId: z.string(),
      username: z.string().nullable(),
      firstName: z.string().nullable(),
      languageCode: z.string().nullable(),
      noticesByEmail: z.boolean(),
      codesByTelegram: z.boolean(),
      createdAt: when,
    }),
  ),
  securityEvents: z.array(z.object({ action: z.string(), ip: z.string().nullable(), details: z.record(z.string(), z.unknown()), createdAt: when })),
}) satisfies z.ZodType<MyDataExport>;
