/** The admin panel's tabs, in order; `labelId` is the tab's name in the admin catalogue. */
export const ADMIN_TABS = [
  { id: 'overview', labelId: 'admin.tab.overview' },
  { id: 'users', labelId: 'admin.tab.users' },
  { id: 'servers', labelId: 'admin.tab.servers' },
  { id: 'plans', labelId: 'admin.tab.plans' },
  { id: 'payments', labelId: 'admin.tab.payments' },
  { id: 'settings', labelId: 'admin.tab.settings' },
  { id: 'logs', labelId: 'admin.tab.logs' },
  { id: 'system', labelId: 'admin.tab.system' },
] as const;

export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];

/** The message id of a tab's name. */
export const adminTabLabelId = (tab: AdminTabId): string => ADMIN_TABS.find((entry) => entry.id === tab)?.labelId ?? 'admin.tab.overview';
