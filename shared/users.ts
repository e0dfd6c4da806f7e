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

export const AdminUsersQuery = z.object({ q: z.string().trim().max(254).optional() });

export const UpdateUserBody = z
  .object({ role: z.enum(ROLES).optional(), trialUsed: z.boolean().optional() })
  .strict()
  .refine((body) => body.role !== undefined || body.trialUsed !== undefined, {
    message: 'Nothing to update',
  });
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;
