import type { AdminSettings } from '../../../../shared/app-settings.js';
import type { AdminPlan } from '../../../../shared/plans.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { AlertBox } from './AlertBox';
import { GeneralSettingsForm } from './GeneralSettingsForm';
import { useAdminResource } from './useAdminResource';

const LOAD_FAILED = 'Failed to fetch settings';

export interface SettingsData {
  settings: AdminSettings;
  plans: AdminPlan[];
}

async function loadSettingsData(signal: AbortSignal): Promise<SettingsData> {
  const [settings, plans] = await Promise.all([adminApi.settings.get(signal), adminApi.plans.list(signal)]);
  return { settings, plans };
}

/** App configuration, one card per area (payment keys will join General as a card of their own). */
export function SettingsTab({ refreshKey }: { refreshKey: number }) {
  const { data, loadState } = useAdminResource(loadSettingsData, refreshKey);

  if (loadState === 'failed' && !data) return <AlertBox>{LOAD_FAILED}</AlertBox>;
  if (!data) return <Loading />;

  return (
    <div className="space-y-6" aria-busy={loadState === 'loading'}>
      {loadState === 'failed' && <AlertBox>{LOAD_FAILED}</AlertBox>}
      <GeneralSettingsForm
        // Reloaded settings that differ from what the form started with replace its values.
        key={JSON.stringify(data.settings)}
        settings={data.settings}
        plans={data.plans}
      />
    </div>
  );
}
