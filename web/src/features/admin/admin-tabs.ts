/** The admin panel's tabs. Later issues add Master Servers, Plans, Settings, Logs and System. */
export const ADMIN_TABS = [{ id: 'users', label: 'Users' }] as const;

export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];
