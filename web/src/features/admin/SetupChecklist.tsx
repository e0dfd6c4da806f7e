import type { SetupChecklist as Checklist } from '../../../../shared/setup.js';
import { adminApi } from '../../api/admin-endpoints';
import type { AdminTabId } from './admin-tabs';
import { useAdminResource } from './useAdminResource';


/**
 * What the operator still has to set up before the site can sell, until all of it is done; each step
 * opens the tab where it is done. Read again whenever the admin changes tab or presses Refresh.
 */
export function SetupChecklist({ refreshKey, onOpenTab }: { refreshKey: number; onOpenTab(tab: AdminTabId): void }) {
  const { data } = useAdminResource<Checklist>(adminApi.getSetup, refreshKey);
  if (!data || data.complete) return null;
  const left = data.steps.filter((step) => !step.done).length;

  return (
    <section aria-labelledby="setup-checklist-heading" className="mt-6 rounded-2xl border border-amber-300 bg-amber-50 p-5">
      <h2 id="setup-checklist-heading" className="text-lg font-semibold text-amber-950">
        Finish setting up your site ({left} {left === 1 ? 'step' : 'steps'} left)
      </h2>
      <ul className="mt-3 space-y-2">
        {data.steps.map((step) => (
          <li key={step.id} className="flex items-start gap-3">
            <span aria-hidden="true" className={`w-4 shrink-0 ${step.done ? 'text-emerald-700' : 'text-amber-700'}`}>
              {step.done ? '✓' : '○'}
            </span>
            <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
              <span className={step.done ? 'text-slate-500 line-through' : 'text-slate-900'}>
                {step.label}
                <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
              </span>
              {!step.done && (
                <button
                  type="button"
                  onClick={() => onOpenTab(step.tab)}
                  className="-mx-2 rounded-lg px-2 py-1 text-sm font-semibold text-indigo-700 underline hover:bg-indigo-50"
                >
                  Open {step.tab === 'servers' ? 'Master Servers' : step.tab === 'plans' ? 'Plans' : 'Settings'}
                  <span className="sr-only"> to {step.label.charAt(0).toLowerCase() + step.label.slice(1)}</span>
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
