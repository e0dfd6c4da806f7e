import { z } from 'zod';
import { CLIENT_KINDS, ROLES } from '../../../shared/auth.js';
import type { AdminAuditEntry, AdminSession, AdminUser, AdminUserAccount, AdminUserPage } from '../../../shared/users.js';
import { VpnAccountAnswer } from './accounts.js';
import { AdminTransactionAnswer, SubscriptionAnswer } from './billing.js';
import type { UserPageService } from '../modules/customer-page/user-page.service.js';

/**
 * What the admin's users routes answer (the list, one customer's page, an update, signing them out everywhere), as
 * the serializer sends them and the OpenAPI document describes them, each checked against the shared type the
 * service returns. `/api/me` answers shared/auth.ts's MeSchema.
 */

const Int = z.number().int();

/** A user as the admin panel sees it: `PATCH /api/admin/users/:id`, and each of `GET /api/admin/users`. */
export const AdminUserAnswer = z.object({
  id: z.string(),
  email: z.string().nullable(),
  role: z.enum(ROLES),
  trialUsed: z.boolean(),
  createdAt: z.string(),
}) satisfies z.ZodType<AdminUser>;

/** `GET /api/admin/users`: one page, newest first (or in e-mail order with `q`); a page shorter than `limit` is the last. */
export const AdminUsersPageAnswer = z.array(AdminUserAnswer);

/** A customer's account with its server's internal name (customers see only the public one). */
const AdminUserAccountAnswer = VpnAccountAnswer.extend({ serverInternalName: z.string().nullable() }) satisfies z.ZodType<AdminUserAccount>;

/** An audit entry about the user or one of their accounts: their sign-ins and security events, and staff actions on them. */
const AdminAuditEntryAnswer = z.object({
  action: z.string(),
  actorEmail: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).describe('What the action recorded: its own fields per action (free-form)'),
  ip: z.string().nullable(),
  createdAt: z.string(),
}) satisfies z.ZodType<AdminAuditEntry>;

/** A session still signed in. */
const AdminSessionAnswer = z.object({
  id: z.string(),
  client: z.enum(CLIENT_KINDS),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
}) satisfies z.ZodType<AdminSession>;

/** `GET /api/admin/users/:id`: one customer in one place (the newest 50 transactions, audit entries and sessions). */
export const AdminUserPageAnswer = z.object({
  user: AdminUserAnswer,
  accounts: z.array(AdminUserAccountAnswer),
  subscriptions: z.array(SubscriptionAnswer),
  transactions: z.array(AdminTransactionAnswer),
  audit: z.array(AdminAuditEntryAnswer),
  sessions: z.array(AdminSessionAnswer),
  telegram: z.object({ id: Int, username: z.string().nullable(), firstName: z.string().nullable(), blockedAt: z.string().nullable() }).nullable(),
}) satisfies z.ZodType<AdminUserPage>;

/** `POST /api/admin/users/:id/sign-out`: how many sessions were ended. */
export const SignedOutEverywhereAnswer = z.object({ revoked: Int }) satisfies z.ZodType<Awaited<ReturnType<UserPageService['signOutEverywhere']>>>;
