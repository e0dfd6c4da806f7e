/** The admin panel's tabs, in order. */
export const ADMIN_TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'users', label: 'Users' },
  { id: 'servers', label: 'Master Servers' },
  { id: 'plans', label: 'Plans' },
  { id: 'payments', label: 'Payments' },
  { id: 'settings', label: 'Settings' },
  { id: 'logs', label: 'Logs' },
  { id: 'system', label: 'System' },
] as const;

export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];
