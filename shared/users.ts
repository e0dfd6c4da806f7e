import { z } from 'zod';
import { EmailSchema, ROLES, type ClientKind, type Role } from './auth.js';
import type { VpnAccount } from './accounts.js';
import type { AdminTransaction, Subscription } from './billing.js';

/** A user as the admin panel sees it. */
export interface AdminUser {
  id: string;
  /** Null for a customer who came through the Telegram bot and has not given one. */
  email: string | null;
  role: Role;
  trialUsed: boolean;
  createdAt: string;
}

const Flag = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Page size of the admin's users list: the default, and the most one request may ask for. */
export const USERS_PAGE = { default: 50, max: 200 } as const;

/**
 * `GET /api/admin/users`: newest first, or with `q` the user with that address (a whole address) or
 * the addresses starting with it, in e-mail order; `after` = the last user id of the previous page.
 * The answer is an array; a page shorter than `limit` is the last.
 */
export const AdminUsersQuery = z.object({
  q: z.string().trim().toLowerCase().max(254).optional(),
  role: z.enum(ROLES).optional(),
  active: Flag.optional(),
  pastDue: Flag.optional(),
  limit: z.coerce.number().int().min(1).max(USERS_PAGE.max).default(USERS_PAGE.default),
  after: z.string().trim().min(1).max(64).optional(),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;

/** What the admin's users list is narrowed to (the web form of AdminUsersQuery). */
export interface UsersFilter {
  q?: string;
  role?: Role;
  active?: boolean;
  pastDue?: boolean;
}

export const UpdateUserBody = z
  .object({ role: z.enum(ROLES).optional(), trialUsed: z.boolean().optional() })
  .strict()
  .refine((body) => body.role !== undefined || body.trialUsed !== undefined, {
    message: 'Nothing to update',
  });
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/**
 * `PUT /api/admin/staff` (the owner's Staff section): gives the person with this address a role — a staff role, or
 * `user` to take theirs away. Someone who never signed in gets a profile and opens the admin at their first sign-in.
 */
export const SetStaffRoleBody = z.object({ email: EmailSchema, role: z.enum(ROLES) }).strict();
export type SetStaffRoleBody = z.infer<typeof SetStaffRoleBody>;

/** An entry of the audit log about a user or one of their accounts. */
export interface AdminAuditEntry {
  action: string;
  actorEmail: string | null;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
  /** Where the action came from (a sign-in's address); null when not recorded or erased. */
  ip: string | null;
  createdAt: string;
}

/** A session still signed in. */
export interface AdminSession {
  id: string;
  client: ClientKind;
  userAgent: string | null;
  ip: string | null;
  createdAt: string;
  lastUsedAt: string;
}

/** A customer's account as the admin sees it: with its server's internal name (customers see only the public one). */
export type AdminUserAccount = VpnAccount & { serverInternalName: string | null };

/** `GET /api/admin/users/:id`: one customer in one place (the newest 50 transactions and audit entries). */
export interface AdminUserPage {
  user: AdminUser;
  accounts: AdminUserAccount[];
  subscriptions: Subscription[];
  /** As the Payments tab shows them, so the page can refund one. */
  transactions: AdminTransaction[];
  audit: AdminAuditEntry[];
  sessions: AdminSession[];
  /** The Telegram user linked to them (the bot, the Mini App), and whether they blocked the bot; null: none. */
  telegram: AdminUserTelegram | null;
}

export interface AdminUserTelegram {
  id: number;
  username: string | null;
  firstName: string | null;
  blockedAt: string | null;
}

/** `POST /api/admin/accounts/:id/extend`: more days from the current expiry (or now, if it has passed) and/or a new data limit. */
export const ExtendAccountBody = z
  .object({
    days: z.number().int().min(1).max(3650).optional(),
    /** null = unlimited. */
    dataLimitGb: z.number().min(0.1).max(100_000).nullable().optional(),
  })
  .strict()
  .refine((body) => body.days !== undefined || body.dataLimitGb !== undefined, { message: 'Give days to add or a data limit' });
export type ExtendAccountBody = z.infer<typeof ExtendAccountBody>;
