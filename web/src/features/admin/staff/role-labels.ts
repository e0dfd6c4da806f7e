import { ERR } from '../../../../../shared/errors.js';
import type { Role } from '../../../../../shared/auth.js';
import { isApiError } from '../../../api';

/** A role's name in the admin catalogue. */
export const ROLE_LABEL_IDS: Record<Role, string> = {
  user: 'admin.role.user',
  owner: 'admin.role.owner',
  admin: 'admin.role.admin',
  support: 'admin.role.support',
  finance: 'admin.role.finance',
};

/** Why a role change was refused, in the reader's language (the catalogue's id), or the screen's own fallback. */
export function roleChangeErrorId(error: unknown, fallback: string): string {
  if (!isApiError(error)) return fallback;
  if (error.code === ERR.last_owner) return 'admin.staff.lastOwner';
  if (error.code === ERR.cannot_demote_self) return 'admin.staff.notYourself';
  if (error.code === ERR.role_forbidden) return 'admin.staff.ownerOnly';
  return fallback;
}
