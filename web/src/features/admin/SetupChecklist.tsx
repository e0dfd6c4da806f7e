import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import type { SetupChecklist as Checklist, SetupStep } from '../../../../shared/setup.js';
import { adminApi } from '../../api/admin-endpoints';
import { adminTabLabelId, adminTabPath } from './admin-tabs';
import { SETTINGS_SECTION_LABEL_IDS, settingsSectionPath } from './settings-sections';
import { useAdminChanges } from './useAdminChanges';
import { useAdminResource } from './useAdminResource';

/** Each step's text in the admin catalogue (the server's English label is the fallback for a step this list lacks). */
const STEP_LABEL_IDS: Record<SetupStep['id'], string> = {
  brand: 'admin.setup.step.brand',
  supportEmail: 'admin.setup.step.supportEmail',
  server: 'admin.setup.step.server',
  plan: 'admin.setup.step.plan',
  payment: 'admin.setup.step.payment',
  trial: 'admin.setup.step.trial',
};

/**
 * What the operator still has to set up before the site can sell, until all of it is done; each step
 * links to the tab where it is done. Read again whenever the admin changes tab, presses Refresh or
 * saves anything (a brand name saved in Settings is ticked off at once).
 */
export function SetupChecklist({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const changes = useAdminChanges();
  const { data } = useAdminResource<Checklist>(adminApi.getSetup, refreshKey + changes);
  if (!data || data.complete) return null;
  const left = data.steps.filter((step) => !step.done).length;

  return (
    <section aria-labelledby="setup-checklist-heading" className="mt-6 rounded-2xl border border-amber-300 bg-amber-50 p-5">
      <h2 id="setup-checklist-heading" className="text-lg font-semibold text-amber-950">
        {_('admin.setup.title', { count: left })}
      </h2>
      <ul className="mt-3 space-y-2">
        {data.steps.map((step) => {
          const labelId = STEP_LABEL_IDS[step.id] as string | undefined;
          const label = labelId ? _(labelId) : step.label;
          return (
            <li key={step.id} className="flex items-start gap-3">
              <span aria-hidden="true" className={`w-4 shrink-0 ${step.done ? 'text-emerald-700' : 'text-amber-700'}`}>
                {step.done ? '✓' : '○'}
              </span>
              <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
                <span className={step.done ? 'text-slate-500 line-through' : 'text-slate-900'}>
                  {label}
                  <span className="sr-only"> {step.done ? _('admin.setup.done') : _('admin.setup.toDo')}</span>
                </span>
                {!step.done && (
                  <Link
                    to={step.section ? settingsSectionPath(step.section) : adminTabPath(step.tab)}
                    className="-mx-2 rounded-lg px-2 py-1 text-sm font-semibold text-indigo-700 underline hover:bg-indigo-50"
                  >
                    {step.section
                      ? _('admin.setup.openSection', { tab: _(adminTabLabelId(step.tab)), section: _(SETTINGS_SECTION_LABEL_IDS[step.section]) })
                      : _('admin.setup.open', { tab: _(adminTabLabelId(step.tab)) })}
                    <span className="sr-only"> {_('admin.setup.openPurpose', { step: label.charAt(0).toLowerCase() + label.slice(1) })}</span>
                  </Link>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
