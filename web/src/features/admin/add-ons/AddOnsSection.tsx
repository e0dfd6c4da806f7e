import { useLingui } from '@lingui/react';
import { useState } from 'react';
import type { AddOn } from '../../../../../shared/add-ons.js';
import type { AdminPlan } from '../../../../../shared/plans.js';
import { adminApi } from '../../../api/admin-endpoints';
import { Loading } from '../../../components/Loading';
import { useFormat } from '../../../i18n/format';
import { useLocale } from '../../../i18n/locale-context';
import { useStoreMoney } from '../../config/useStoreMoney';
import { useToast } from '../../toast/toast-context';
import { AdminTable, Cell } from '../AdminTable';
import { AlertBox } from '../AlertBox';
import { buttonClass } from '../admin-ui';
import { errorMessage } from '../admin-errors';
import { ConfirmDialog } from '../ConfirmDialog';
import { ActiveBadge, RowActions } from '../RowActions';
import { TabSection } from '../TabSection';
import { useAdminResource } from '../useAdminResource';
import { useBusyIds } from '../useBusyIds';
import { AddOnFormDialog } from './AddOnFormDialog';
import { trafficText } from './add-on-form';

const COLUMN_IDS = [
  'admin.column.name',
  'admin.addOns.column.gives',
  'admin.column.price',
  'admin.addOns.column.plans',
  'admin.addOns.column.until',
  'admin.column.status',
  'admin.column.actions',
] as const;

/** "+1 device", "+50 GB". */
function GivesText({ addOn }: { addOn: AddOn }) {
  const { _ } = useLingui();
  const { locale } = useLocale();
  return (
    <span className="whitespace-nowrap">
      {addOn.kind === 'devices'
        ? _('admin.addOns.givesDevices', { count: addOn.amount })
        : _('admin.addOns.givesTraffic', { amount: trafficText(addOn.amount, locale) })}
    </span>
  );
}

type FormState = { addOn: AddOn | null } | null;

/**
 * Add-ons sold on top of a plan (more devices or more traffic): list, create, edit, switch off or on, and delete one
 * nobody bought (the server says 409 otherwise, and its message is shown). Oldest first, as the server lists them.
 */
export function AddOnsSection({ refreshKey, plans }: { refreshKey: number; plans: readonly AdminPlan[] }) {
  const { _ } = useLingui();
  const format = useFormat();
  const money = useStoreMoney();
  const toast = useToast();
  const { data: addOns, setData: setAddOns, loadState } = useAdminResource(adminApi.addOns.list, refreshKey);
  const { isBusy, runBusy } = useBusyIds();
  const [form, setForm] = useState<FormState>(null);
  const [toDelete, setToDelete] = useState<AddOn | null>(null);
  const planName = (id: string) => plans.find((plan) => plan.id === id)?.name ?? id;

  const replace = (updated: AddOn) => setAddOns((list) => list?.map((addOn) => (addOn.id === updated.id ? updated : addOn)) ?? [updated]);

  function onSaved(saved: AddOn) {
    const isNew = !addOns?.some((addOn) => addOn.id === saved.id);
    if (isNew) setAddOns((list) => [...(list ?? []), saved]);
    else replace(saved);
    toast.success(_(isNew ? 'admin.addOns.created' : 'admin.addOns.updated'));
    setForm(null);
  }

  const toggle = (addOn: AddOn) =>
    runBusy(addOn.id, async () => {
      const status = addOn.status === 'active' ? 'disabled' : 'active';
      try {
        replace(await adminApi.addOns.update(addOn.id, { status }));
        toast.success(_(status === 'active' ? 'admin.addOns.switchedOn' : 'admin.addOns.switchedOff'));
      } catch (err) {
        toast.error(errorMessage(err, _('admin.addOns.updateFailed')));
      }
    });

  const remove = (addOn: AddOn) =>
    runBusy(addOn.id, async () => {
      try {
        await adminApi.addOns.remove(addOn.id);
        setAddOns((list) => list?.filter((item) => item.id !== addOn.id) ?? null);
        toast.success(_('admin.addOns.deleted'));
      } catch (err) {
        // 409 add_on_in_use: accounts have it, so it can only be switched off; the server says so.
        toast.error(errorMessage(err, _('admin.addOns.deleteFailed')));
      } finally {
        setToDelete(null);
      }
    });

  return (
    <TabSection title={_('admin.addOns.title')}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-3xl text-sm text-slate-600">{_('admin.addOns.intro')}</p>
        <button type="button" onClick={() => setForm({ addOn: null })} className={buttonClass.primary}>
          {_('admin.addOns.create')}
        </button>
      </div>
      {loadState === 'failed' && <AlertBox>{_('admin.addOns.loadFailed')}</AlertBox>}
      {loadState === 'loading' && !addOns ? (
        <Loading />
      ) : (
        <AdminTable
          caption={_('admin.addOns.title')}
          columns={COLUMN_IDS.map((column) => _(column))}
          busy={loadState === 'loading'}
          isEmpty={addOns?.length === 0}
          emptyText={_('admin.addOns.empty')}
          pinLastColumn
        >
          {addOns?.map((addOn) => (
            <tr key={addOn.id}>
              <Cell className="font-medium text-slate-900">
                <bdi>{addOn.name}</bdi>
              </Cell>
              <Cell>
                <GivesText addOn={addOn} />
              </Cell>
              <Cell className="whitespace-nowrap text-slate-700">{money(addOn.price)}</Cell>
              <Cell>{addOn.appliesTo ? format.list(addOn.appliesTo.map(planName)) : _('admin.addOns.allPlans')}</Cell>
              <Cell className="whitespace-nowrap text-slate-700">
                {addOn.until === 'forever' ? _('admin.addOns.untilForever') : _('admin.addOns.untilPeriodEnd')}
              </Cell>
              <Cell>
                <ActiveBadge active={addOn.status === 'active'} />
              </Cell>
              <Cell>
                <RowActions
                  name={addOn.name}
                  active={addOn.status === 'active'}
                  busy={isBusy(addOn.id)}
                  onEdit={() => setForm({ addOn })}
                  onToggle={() => void toggle(addOn)}
                  onDelete={() => setToDelete(addOn)}
                />
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}
      {form && <AddOnFormDialog addOn={form.addOn} plans={plans} onClose={() => setForm(null)} onSaved={onSaved} />}
      {toDelete && (
        <ConfirmDialog
          title={_('admin.addOns.deleteTitle')}
          message={_('admin.addOns.confirmDelete', { name: toDelete.name })}
          confirmLabel={_('admin.common.delete')}
          busyLabel={_('admin.common.deleting')}
          busy={isBusy(toDelete.id)}
          onConfirm={() => void remove(toDelete)}
          onCancel={() => setToDelete(null)}
        />
      )}
    </TabSection>
  );
}
