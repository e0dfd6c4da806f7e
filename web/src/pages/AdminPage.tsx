import { useLingui } from '@lingui/react';
import { useId, useState, type ComponentType } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { can } from '../../../shared/staff.js';
import { AdminTabBar } from '../features/admin/AdminTabBar';
import { adminTabAt, adminTabPath, adminTabsFor, type AdminTabId } from '../features/admin/admin-tabs';
import { StaffTab } from '../features/admin/staff/StaffTab';
import { useAuth } from '../features/auth/auth-context';
import { LogsTab } from '../features/admin/LogsTab';
import { AuditTab } from '../features/admin/audit/AuditTab';
import { SetupChecklist } from '../features/admin/SetupChecklist';
import { OverviewTab } from '../features/admin/overview/OverviewTab';
import { PaymentsTab } from '../features/admin/PaymentsTab';
import { PlansTab } from '../features/admin/PlansTab';
import { PromotionsTab } from '../features/admin/promotions/PromotionsTab';
import { ServersTab } from '../features/admin/ServersTab';
import { SettingsTab } from '../features/admin/SettingsTab';
import { SystemTab } from '../features/admin/SystemTab';
import { TelegramTab } from '../features/admin/TelegramTab';
import { UsersTab } from '../features/admin/UsersTab';

/** Each tab reloads its data when `refreshKey` changes (the Refresh button). */
const TAB_PANELS: Record<AdminTabId, ComponentType<{ refreshKey: number }>> = {
  overview: OverviewTab,
  users: UsersTab,
  servers: ServersTab,
  plans: PlansTab,
  promotions: PromotionsTab,
  payments: PaymentsTab,
  settings: SettingsTab,
  telegram: TelegramTab,
  staff: StaffTab,
  logs: LogsTab,
  audit: AuditTab,
  system: SystemTab,
};

/** The admin panel: the tab on screen is the one the path names (`/admin/payments`), so a reload or a link keeps it. */
export default function AdminPage() {
  const { _ } = useLingui();
  const id = useId();
  // The router draws this page only at a tab's path.
  const tab = adminTabAt(useLocation().pathname) ?? 'overview';
  const [refreshKey, setRefreshKey] = useState(0);
  const role = useAuth().user?.role;
  const allowed = adminTabsFor(role);
  const TabPanel = TAB_PANELS[tab];
  // A tab this staff role cannot open (a support member at /admin, the overview) leads to the first one it can.
  if (!allowed.includes(tab) && allowed[0]) return <Navigate to={adminTabPath(allowed[0])} replace />;

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{_('admin.page.title')}</h1>
        <button
          type="button"
          onClick={() => setRefreshKey((key) => key + 1)}
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700 shadow-sm hover:bg-slate-50"
        >
          {_('admin.page.refresh')}
        </button>
      </div>
      {/* Keyed by tab: read again when the admin moves to another tab (and after every save: see admin-changes.ts). */}
      {can(role, 'settings.read') && <SetupChecklist key={tab} refreshKey={refreshKey} />}
      <div className="mt-6 border-b border-slate-200">
        <AdminTabBar selected={tab} idPrefix={id} />
      </div>
      <div role="tabpanel" id={`${id}-panel-${tab}`} aria-labelledby={`${id}-tab-${tab}`} className="pt-6">
        <TabPanel key={tab} refreshKey={refreshKey} />
      </div>
    </div>
  );
}
