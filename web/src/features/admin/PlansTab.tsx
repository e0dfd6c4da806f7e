import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { renewalIntervalOf } from '../../../../shared/plan-billing.js';
import type { AdminPlan } from '../../../../shared/plans.js';
import { adminApi } from '../../api/admin-endpoints';
import { Loading } from '../../components/Loading';
import { useFormat } from '../../i18n/format';
import { useStoreMoney } from '../config/useStoreMoney';
import { useToast } from '../toast/toast-context';
import { AddOnsSection } from './add-ons/AddOnsSection';
import { AdminTable, Cell } from './AdminTable';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { errorMessage } from './admin-errors';
import { formatLocations } from './admin-format';
import { ConfirmDialog } from './ConfirmDialog';
import { ActiveBadge, RowActions } from './RowActions';
import { intervalText } from './plan-form';
import { PlanFormDialog } from './PlanFormDialog';
import { StatusBadge } from './StatusBadge';
import { useAdminResource } from './useAdminResource';
import { useBusyIds } from './useBusyIds';

const MESSAGES = {
  loadFailed: 'admin.plans.loadFailed',
  created: 'admin.plans.created',
  updated: 'admin.plans.updated',
  deleted: 'admin.plans.deleted',
  deleteFailed: 'admin.plans.deleteFailed',
  enabled: 'admin.plans.enabled',
  disabled: 'admin.plans.disabled',
  statusFailed: 'admin.plans.statusFailed',
  confirmDelete: 'admin.plans.confirmDelete',
} as const;

const COLUMN_IDS = [
  'admin.column.name',
  'admin.column.tier',
  'admin.column.duration',
  'admin.column.data',
  'admin.column.devices',
  'admin.column.price',
  'admin.column.billing',
  'admin.column.locations',
  'admin.column.status',
  'admin.column.pricingPage',
  'admin.column.trial',
  'admin.column.actions',
] as const;

/** One-off, or how often a recurring plan renews. */
function BillingCell({ plan }: { plan: AdminPlan }) {
  const { _ } = useLingui();
  if (plan.billing !== 'recurring') return <span className="whitespace-nowrap">{_('admin.plans.oneOff')}</span>;
  const interval = renewalIntervalOf(plan.days);
  return (
    <StatusBadge tone={interval ? 'indigo' : 'red'}>
      {interval ? _('admin.plans.renews', { interval: intervalText(_, interval) }) : _('admin.plans.renewsNotBillable')}
    </StatusBadge>
  );
}

/** Whether (and where) the plan is listed on the pricing page. */
function PricingPageCell({ plan }: { plan: AdminPlan }) {
  const { _ } = useLingui();
  const format = useFormat();
  if (plan.isTrial || !plan.public) return <span className="text-slate-500">{_('admin.plans.hidden')}</span>;
  return (
    <span className="flex flex-wrap items-center gap-1.5">
      <span className="whitespace-nowrap">{_('admin.plans.listed', { order: format.number(plan.sortOrder) })}</span>
      {plan.mostPopular && <StatusBadge tone="indigo">{_('admin.plans.mostPopular')}</StatusBadge>}
    </span>
  );
}

type FormState = { plan: AdminPlan | null } | null;

/** Plans customers can buy (or try): list, create, edit, enable or disable, delete. Newest first. Below them, the add-ons sold on top. */
export function PlansTab({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const format = useFormat();
  const money = useStoreMoney();
  const toast = useToast();
  const { data: plans, setData: setPlans, loadState } = useAdminResource(adminApi.plans.list, refreshKey);
  const { isBusy, runBusy } = useBusyIds();
  const [form, setForm] = useState<FormState>(null);
  const [toDelete, setToDelete] = useState<AdminPlan | null>(null);

  const replace = (updated: AdminPlan) => setPlans((list) => list?.map((plan) => (plan.id === updated.id ? updated : plan)) ?? [updated]);

  function onSaved(saved: AdminPlan) {
    const isNew = !plans?.some((plan) => plan.id === saved.id);
    if (isNew) setPlans((list) => [saved, ...(list ?? [])]);
    else replace(saved);
    toast.success(_(isNew ? MESSAGES.created : MESSAGES.updated));
    setForm(null);
  }

  const toggleStatus = (plan: AdminPlan) =>
    runBusy(plan.id, async () => {
      const status = plan.status === 'active' ? 'disabled' : 'active';
      try {
        replace(await adminApi.plans.update(plan.id, { status }));
        toast.success(_(status === 'active' ? MESSAGES.enabled : MESSAGES.disabled));
      } catch (err) {
        toast.error(errorMessage(err, _(MESSAGES.statusFailed)));
      }
    });

  const deletePlan = (plan: AdminPlan) =>
    runBusy(plan.id, async () => {
      try {
        await adminApi.plans.remove(plan.id);
        setPlans((list) => list?.filter((item) => item.id !== plan.id) ?? null);
        toast.success(_(MESSAGES.deleted));
      } catch (err) {
        toast.error(errorMessage(err, _(MESSAGES.deleteFailed)));
      } finally {
        setToDelete(null);
      }
    });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600">{_('admin.plans.intro')}</p>
        <button type="button" onClick={() => setForm({ plan: null })} className={buttonClass.primary}>
          {_('admin.plans.create')}
        </button>
      </div>

      {loadState === 'failed' && <AlertBox>{_(MESSAGES.loadFailed)}</AlertBox>}

      {loadState === 'loading' && !plans ? (
        <Loading />
      ) : (
        <AdminTable
          caption={_('admin.plans.caption')}
          columns={COLUMN_IDS.map((column) => _(column))}
          busy={loadState === 'loading'}
          isEmpty={plans?.length === 0}
          emptyText={_('admin.plans.empty')}
          pinLastColumn
        >
          {plans?.map((plan) => (
            <tr key={plan.id}>
              <Cell className="min-w-40 font-medium text-slate-900">
                <bdi>{plan.name}</bdi>
              </Cell>
              <Cell className="whitespace-nowrap text-slate-700">{plan.tier ? <bdi>{plan.tier}</bdi> : '—'}</Cell>
              <Cell className="whitespace-nowrap text-slate-700">{format.duration(plan.days)}</Cell>
              <Cell className="whitespace-nowrap text-slate-700">{format.bytes(plan.dataLimitBytes)}</Cell>
              <Cell className="whitespace-nowrap text-slate-700">
                {typeof plan.deviceLimit === 'number' ? format.number(plan.deviceLimit) : _('admin.plans.unlimitedDevices')}
              </Cell>
              <Cell className="whitespace-nowrap text-slate-700">
                {money(plan.price)}
                {typeof plan.starsPrice === 'number' && <span className="block text-xs text-slate-500">⭐ {format.number(plan.starsPrice)}</span>}
              </Cell>
              <Cell>
                <BillingCell plan={plan} />
              </Cell>
              <Cell>{formatLocations(plan.locations, _('admin.locations.all'))}</Cell>
              <Cell>
                <ActiveBadge active={plan.status === 'active'} />
              </Cell>
              <Cell>
                <PricingPageCell plan={plan} />
              </Cell>
              <Cell>{plan.isTrial ? <StatusBadge tone="amber">{_('admin.plans.trial')}</StatusBadge> : _('admin.common.no')}</Cell>
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
          title={_('admin.plans.deleteTitle')}
          message={_(MESSAGES.confirmDelete)}
          confirmLabel={_('admin.common.delete')}
          busyLabel={_('admin.common.deleting')}
          busy={isBusy(toDelete.id)}
          onConfirm={() => void deletePlan(toDelete)}
          onCancel={() => setToDelete(null)}
        />
      )}

      <div className="pt-6">
        <AddOnsSection refreshKey={refreshKey} plans={plans ?? []} />
      </div>
    </div>
  );
}
