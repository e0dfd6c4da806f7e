import { z } from 'zod';
import { ROLES, type Role } from './auth.js';

/** A user as the admin panel sees it. */
export interface AdminUser {
  id: string;
  email: string;
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
