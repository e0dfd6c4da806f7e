import { PanelError } from './panel-driver.js';

/** The fields of Marzneshin's `GET /api/admins/current` that decide what this admin may do (panels.md). */
interface MarzneshinAdmin {
  is_sudo?: unknown;
  all_services_access?: unknown;
  modify_users_access?: unknown;
  service_ids?: unknown;
}

export const cannotAssignService = (serviceId: string) => `this panel admin cannot assign service ${serviceId}; use a sudo admin or give it the service`;
export const CANNOT_MODIFY_USERS = 'this panel admin cannot modify users; use a sudo admin or allow it to modify users';

/**
 * A non-sudo admin passes the login, but the panel silently cuts the `service_ids` it may not assign
 * (a user with no service, and a 200) and refuses changes to users without `modify_users_access`.
 * Throws PanelError('not_permitted') when this admin could not provision on `serviceId` ('' = any).
 * Fields an older panel does not send are not held against it.
 */
export function checkAdminMayProvision(raw: Record<string, unknown>, serviceId: string): void {
  const admin = raw as MarzneshinAdmin;
  if (admin.is_sudo === true) return;
  if (admin.modify_users_access === false) throw new PanelError('not_permitted', CANNOT_MODIFY_USERS);
  if (serviceId === '' || admin.all_services_access === true || !Array.isArray(admin.service_ids)) return;
  if (!admin.service_ids.map(String).includes(serviceId)) throw new PanelError('not_permitted', cannotAssignService(serviceId));
}
