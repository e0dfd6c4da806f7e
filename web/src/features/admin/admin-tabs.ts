import type { Role } from '../../../../shared/auth.js';
import { ADMIN_TAB_IDS, adminTabsFor, type AdminTabId } from '../../../../shared/admin-tabs.js';

export { ADMIN_TAB_IDS, adminTabAt, adminTabPath, adminTabsFor, type AdminTabId } from '../../../../shared/admin-tabs.js';

/** The message id of each tab's name in the admin catalogue. */
const LABEL_IDS: Record<AdminTabId, string> = {
  overview: 'admin.tab.overview',
  users: 'admin.tab.users',
  servers: 'admin.tab.servers',
  plans: 'admin.tab.plans',
  promotions: 'admin.tab.promotions',
  payments: 'admin.tab.payments',
  settings: 'admin.tab.settings',
  telegram: 'admin.tab.telegram',
  staff: 'admin.tab.staff',
  logs: 'admin.tab.logs',
  audit: 'admin.tab.audit',
  system: 'admin.tab.system',
};

/** The admin panel's tabs, in order; `labelId` is the tab's name in the admin catalogue. */
export const ADMIN_TABS = ADMIN_TAB_IDS.map((id) => ({ id, labelId: LABEL_IDS[id] }));

/** The tabs a staff member with this role sees (see shared/admin-tabs.ts). */
export const adminTabsOf = (role: Role | undefined) => ADMIN_TABS.filter((tab) => adminTabsFor(role).includes(tab.id));

/** The message id of a tab's name. */
export const adminTabLabelId = (tab: AdminTabId): string => LABEL_IDS[tab];
