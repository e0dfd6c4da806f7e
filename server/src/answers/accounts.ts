import { z } from 'zod';
import { ACCOUNT_STATUSES, type AccountLogEntry, type VpnAccount } from '../../../shared/accounts.js';

/** A name in the other languages (the English is beside it). */
const TranslatedNames = z.object({ ru: z.string().optional(), fa: z.string().optional(), 'zh-CN': z.string().optional() });

/**
 * What the account routes answer: a customer's VPN account as they see it (the dashboard's list, a new account, the
 * admin's actions on one) and the admin's provisioning log, each checked against the shared type the service
 * returns. The dashboard's list is also serialised by its own fast schema (account-response.ts); this one is what
 * the OpenAPI document shows of it. Times are ISO strings.
 */

/** A customer's VPN account (`VpnAccount`): our own `/sub/<token>` link, never the panel's address. */
export const VpnAccountAnswer = z.object({
  id: z.string(),
  username: z.string(),
  status: z.enum(ACCOUNT_STATUSES),
  expireDate: z.string().nullable(),
  /** Bytes as the panel reports them (not checked to be whole: a panel's figure is passed on as it is); null = unlimited. */
  dataLimitBytes: z.number().nullable(),
  usedTrafficBytes: z.number(),
  createdAt: z.string(),
  combinedUrl: z.string().nullable(),
  subscriptionUrl: z.string().nullable(),
  links: z.array(z.string()),
  server: z
    .object({
      name: z.string(),
      locationNumber: z.number().int().nullable(),
      nameTranslations: TranslatedNames,
      locations: z.string(),
    })
    .nullable(),
  planName: z.string().nullable(),
  planNames: TranslatedNames.optional(),
  planId: z.string().nullable(),
  renewable: z.boolean(),
  usageStale: z.boolean(),
  paymentConfirmed: z.boolean(),
  usageCheckedAt: z.string().nullable(),
  deviceLimit: z.number().int().nullable(),
  autoRenewFromWallet: z.boolean(),
  scheduledPlanChange: z.object({ planId: z.string(), effectiveAt: z.string() }).nullable(),
}) satisfies z.ZodType<VpnAccount>;

/** `GET /api/accounts`: the caller's own accounts, newest first. */
export const VpnAccountListAnswer = z.array(VpnAccountAnswer);

/** One provisioning step of `GET /api/admin/logs` (never secrets). */
export const AccountLogEntryAnswer = z.object({
  id: z.number().int(),
  step: z.string(),
  status: z.enum(['success', 'failure']),
  details: z.record(z.string(), z.unknown()).describe("The step's own facts (panel, attempt, error…): free-form, different for each step"),
  vpnAccountId: z.string().nullable(),
  userId: z.string().nullable(),
  createdAt: z.string(),
}) satisfies z.ZodType<AccountLogEntry>;

/** `GET /api/admin/logs`: newest first. */
export const AccountLogAnswer = z.array(AccountLogEntryAnswer);
