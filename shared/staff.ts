import type { Role, StaffRole } from './auth.js';

/**
 * What a staff member may do. Every admin route needs one of these (server/src/lib/staff-policy.ts maps each
 * route to its permission); a role has only the permissions listed for it here, so anything unlisted is denied.
 */
export const PERMISSIONS = [
  'customers.read',
  'customers.write',
  'payments.read',
  'payments.write',
  'reports.read',
  'catalogue.read',
  'catalogue.write',
  'settings.read',
  'settings.write',
  'payment-keys.write',
  'staff.manage',
  'audit.read',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const SUPPORT: readonly Permission[] = ['customers.read', 'customers.write', 'payments.read', 'catalogue.read'];
const FINANCE: readonly Permission[] = ['customers.read', 'payments.read', 'payments.write', 'reports.read', 'catalogue.read'];

export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS.filter((permission) => permission !== 'staff.manage' && permission !== 'payment-keys.write'),
  support: SUPPORT,
  finance: FINANCE,
};

/** The one policy: deny by default, so a customer, an unknown role or an unmapped route gets nothing. */
export function can(role: Role | undefined, permission: Permission | undefined): boolean {
  if (!role || !permission || role === 'user') return false;
  return ROLE_PERMISSIONS[role]?.includes(permission) ?? false;
}

/** The staff roles that have a permission (the OpenAPI document lists them per route). */
export function rolesWith(permission: Permission): StaffRole[] {
  return (Object.keys(ROLE_PERMISSIONS) as StaffRole[]).filter((role) => can(role, permission));
}
