import { useState } from 'react';
import { describeInterval, renewalIntervalOf } from '../../../../shared/plan-billing.js';
import type { AdminPlan } from '../../../../shared/plans.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { useToast } from '../toast/toast-context';
import { AdminTable, Cell } from './AdminTable';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { errorMessage } from './admin-errors';
import { formatDataLimit, formatDuration, formatLocations, formatPrice } from './admin-format';
import { ConfirmDialog } from './ConfirmDialog';
import { ActiveBadge, RowActions } from './RowActions';
import { PlanFormDialog } from './PlanFormDialog';
import { StatusBadge } from './StatusBadge';
import { useAdminResource } from './useAdminResource';
import { useBusyIds } from './useBusyIds';

const MESSAGES = {
  loadFailed: 'Failed to fetch plans',
  created: 'Plan created successfully',
  updated: 'Plan updated successfully',
  deleted: 'Plan deleted successfully',
  deleteFailed: 'Failed to delete plan',
  enabled: 'Plan enabled',
  disabled: 'Plan disabled',
  statusFailed: 'Failed to update plan status',
  confirmDelete: 'Are you sure you want to delete this plan? This action cannot be undone.',
} as const;

const COLUMNS = ['Name', 'Tier', 'Duration', 'Data', 'Price', 'Billing', 'Locations', 'Status', 'Pricing page', 'Trial', 'Actions'] as const;

/** One-off, or how often a recurring plan renews. */
function BillingCell({ plan }: { plan: AdminPlan }) {
  if (plan.billing !== 'recurring') return <span className="whitespace-nowrap">One-off</span>;
  const interval = renewalIntervalOf(plan.days);
  return (
    <StatusBadge tone={interval ? 'indigo' : 'red'}>
      {interval ? `Renews ${describeInterval(interval)}` : 'Renews (duration not billable)'}
    </StatusBadge>
  );
}

/** Whether (and where) the plan is listed on the pricing page. */
function PricingPageCell({ plan }: { plan: AdminPlan }) {
  if (plan.isTrial || !plan.public) return <span className="text-slate-500">Hidden</span>;
  return (
    <span className="flex items-center gap-1.5 whitespace-nowrap">
      <span>Listed · order {plan.sortOrder}</span>
      {plan.mostPopular && <StatusBadge tone="indigo">Most popular</StatusBadge>}
    </span>
  );
}

type FormState = { plan: AdminPlan | null } | null;

/** Plans customers can buy (or try): list, create, edit, enable or disable, delete. Newest first. */
export function PlansTab({ refreshKey }: { refreshKey: number }) {
  const toast = useToast();
  const { data: plans, setData: setPlans, loadState } = useAdminResource(adminApi.plans.list, refreshKey);
  const { isBusy, runBusy } = useBusyIds();
  const [form, setForm] = useState<FormState>(null);
  const [toDelete, setToDelete] = useState<AdminPlan | null>(null);

  const replace = (updated: AdminPlan) =>
    setPlans((list) => list?.map((plan) => (plan.id === updated.id ? updated : plan)) ?? [updated]);

  function onSaved(saved: AdminPlan) {
    const isNew = !plans?.some((plan) => plan.id === saved.id);
    if (isNew) setPlans((list) => [saved, ...(list ?? [])]);
    else replace(saved);
    toast.success(isNew ? MESSAGES.created : MESSAGES.updated);
    setForm(null);
  }

  const toggleStatus = (plan: AdminPlan) =>
    runBusy(plan.id, async () => {
      const status = plan.status === 'active' ? 'disabled' : 'active';
      try {
        replace(await adminApi.plans.update(plan.id, { status }));
        toast.success(status === 'active' ? MESSAGES.enabled : MESSAGES.disabled);
      } catch (err) {
        toast.error(errorMessage(err, MESSAGES.statusFailed));
      }
    });

  const deletePlan = (plan: AdminPlan) =>
    runBusy(plan.id, async () => {
      try {
        await adminApi.plans.remove(plan.id);
        setPlans((list) => list?.filter((item) => item.id !== plan.id) ?? null);
        toast.success(MESSAGES.deleted);
      } catch (err) {
        toast.error(errorMessage(err, MESSAGES.deleteFailed));
      } finally {
        setToDelete(null);
      }
    });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">
          What customers can buy, and what the pricing page shows: its prices are these plans&apos; prices. Disabled plans
          are hidden from customers.
        </p>
        <button type="button" onClick={() => setForm({ plan: null })} className={buttonClass.primary}>
          Create plan
        </button>
      </div>

      {loadState === 'failed' && <AlertBox>{MESSAGES.loadFailed}</AlertBox>}

      {loadState === 'loading' && !plans ? (
        <Loading />
      ) : (
        <AdminTable caption="Plans" columns={COLUMNS} busy={loadState === 'loading'} isEmpty={plans?.length === 0} emptyText="No plans yet.">
          {plans?.map((plan) => (
            <tr key={plan.id}>
              <Cell className="font-medium whitespace-nowrap text-slate-900">{plan.name}</Cell>
              <Cell className="whitespace-nowrap text-slate-700">{plan.tier ?? '—'}</Cell>
              <Cell className="whitespace-nowrap text-slate-700">{formatDuration(plan.days)}</Cell>
              <Cell className="whitespace-nowrap text-slate-700">{formatDataLimit(plan.dataLimitBytes)}</Cell>
              <Cell className="whitespace-nowrap text-slate-700">{formatPrice(plan.price)}</Cell>
              <Cell>
                <BillingCell plan={plan} />
              </Cell>
              <Cell>{formatLocations(plan.locations)}</Cell>
              <Cell>
                <ActiveBadge active={plan.status === 'active'} />
              </Cell>
              <Cell>
                <PricingPageCell plan={plan} />
              </Cell>
              <Cell>{plan.isTrial ? <StatusBadge tone="amber">Trial</StatusBadge> : 'No'}</Cell>
              <Cell>
                <RowActions
                  name={plan.name}
                  active={plan.status === 'active'}
                  busy={isBusy(plan.id)}
                  onEdit={() => setForm({ plan })}
                  onToggle={() => void toggleStatus(plan)}
                  onDelete={() => setToDelete(plan)}
                />
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}

      {form && <PlanFormDialog plan={form.plan} onClose={() => setForm(null)} onSaved={onSaved} />}
      {toDelete && (
        <ConfirmDialog
          title="Delete plan"
          message={MESSAGES.confirmDelete}
          confirmLabel="Delete"
          busyLabel="Deleting..."
          busy={isBusy(toDelete.id)}
          onConfirm={() => void deletePlan(toDelete)}
          onCancel={() => setToDelete(null)}
        />
      )}
    </div>
  );
}
