import { PanelError } from './panel-driver.js';

/**
 * PasarGuard v5 replaced Marzban's `is_sudo` with roles (app/models/admin_role.py). `GET /api/admin`
 * answers the admin with its `role`: `is_owner`, `permissions` per resource and action (`true`,
 * `{"scope":0|1|2}` with 0 = denied, or missing = denied), `access.require_template`, `limits` (merged
 * with the admin's `permission_overrides`) and `hwid`. A `limited` admin may only read.
 */
interface RoleLimits {
  min_hwid_per_user?: number | null;
  max_hwid_per_user?: number | null;
}

interface PasarguardAdmin {
  status?: unknown;
  role?: {
    is_owner?: unknown;
    permissions?: Record<string, Record<string, unknown> | null | undefined>;
    access?: { require_template?: unknown };
    limits?: RoleLimits;
    hwid?: { mode?: unknown; min_limit?: number | null; max_limit?: number | null };
  } | null;
  permission_overrides?: RoleLimits | null;
}

/** What the driver does to users: create, read back, extend / enable, reset, delete. */
const USER_ACTIONS = ['create', 'read', 'update', 'delete', 'reset_usage'] as const;

/** app/operation/permissions.py enforce_permission: `true` or a non-empty object whose scope is not 0. */
function allows(value: unknown): boolean {
  if (value === true) return true;
  if (!value || typeof value !== 'object' || Object.keys(value).length === 0) return false;
  return (value as { scope?: unknown }).scope !== 0;
}

const positive = (value: number | null | undefined) => typeof value === 'number' && value > 0;

/**
 * Throws PanelError('not_permitted') when this admin could not provision our users: a missing user
 * permission, a role that creates users only from templates, a traffic-limited admin (writes blocked),
 * or a role that forces a per-user HWID limit (we create users with `hwid_limit: 0`, the panel's device
 * limit off, because the storefront enforces device limits itself). An owner may do everything.
 * Fields an older panel does not send are not held against it.
 */
export function checkAdminMayProvision(raw: Record<string, unknown>): void {
  const admin = raw as PasarguardAdmin;
  const role = admin.role;
  if (!role || role.is_owner === true) return;
  if (admin.status === 'limited') {
    throw new PanelError('not_permitted', 'this panel admin is limited (its traffic quota is used up), so the panel refuses its changes to users');
  }
  const users = role.permissions?.users ?? {};
  const missing = USER_ACTIONS.filter((action) => !allows(users[action]));
  if (missing.length > 0) {
    throw new PanelError(
      'not_permitted',
      `this panel admin's role lacks ${missing.map((a) => `users.${a}`).join(', ')}; use an owner admin or grant these permissions`,
    );
  }
  if (role.access?.require_template === true) {
    throw new PanelError('not_permitted', 'this panel admin\'s role may create users only from templates; use a role without "require template"');
  }
  const limits = { ...role.limits, ...Object.fromEntries(Object.entries(admin.permission_overrides ?? {}).filter(([, v]) => v !== null)) };
  const hwid = role.hwid;
  const forcesDeviceLimit =
    (limits.max_hwid_per_user !== null && limits.max_hwid_per_user !== undefined) ||
    positive(limits.min_hwid_per_user) ||
    (hwid?.mode === 'override' && (positive(hwid.max_limit) || positive(hwid.min_limit)));
  if (forcesDeviceLimit) {
    throw new PanelError(
      'not_permitted',
      "this panel admin's role forces a per-user device (HWID) limit; the storefront limits devices itself, so use a role without HWID limits",
    );
  }
}
