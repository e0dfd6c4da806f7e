import { useLingui } from '@lingui/react';
import { useState } from 'react';
import type { AdminPlan } from '../../../../../shared/plans.js';
import type { AdminPromoCode } from '../../../../../shared/promo-codes.js';
import { adminApi } from '../../../api/admin-endpoints';
import { Loading } from '../../../components/Loading';
import { useFormat } from '../../../i18n/format';
import { useConfig } from '../../config/config-context';
import { useToast } from '../../toast/toast-context';
import { AdminTable, Cell } from '../AdminTable';
import { AlertBox } from '../AlertBox';
import { buttonClass, rowButtonClass } from '../admin-ui';
import { errorMessage } from '../admin-errors';
import { ConfirmDialog } from '../ConfirmDialog';
import { ActiveBadge } from '../RowActions';
import { TabSection } from '../TabSection';
import { useAdminResource } from '../useAdminResource';
import { useBusyIds } from '../useBusyIds';
import { PromoCodeFormDialog } from './PromoCodeFormDialog';

const COLUMN_IDS = [
  'admin.promo.column.code',
  'admin.promo.column.discount',
  'admin.promo.column.plans',
  'admin.promo.column.uses',
  'admin.promo.column.dates',
  'admin.promo.column.paid',
  'admin.column.status',
  'admin.column.actions',
] as const;

/** "20% · First payment", "$5.00 · 3 months", "10% · Every payment". */
function DiscountText({ code }: { code: AdminPromoCode }) {
  const { _ } = useLingui();
  const format = useFormat();
  const { currency } = useConfig();
  const amount = code.percentOff !== null ? format.percent(code.percentOff) : format.money(code.amountOff ?? 0, code.currency ?? currency);
  const lasts =
    code.duration === 'once'
      ? _('admin.promo.once')
      : code.duration === 'forever'
        ? _('admin.promo.forever')
        : _('admin.promo.months', { count: code.durationMonths ?? 1 });
  return (
    <span className="whitespace-nowrap">
      {amount} · {lasts}
    </span>
  );
}

/** The operator's promo codes: what each takes off, for which plans, how many uses are taken, and what they were worth. */
export function PromoCodesSection({ refreshKey, plans }: { refreshKey: number; plans: readonly AdminPlan[] }) {
  const { _ } = useLingui();
  const format = useFormat();
  const toast = useToast();
  const { currency } = useConfig();
  const { data: codes, setData: setCodes, loadState } = useAdminResource(adminApi.promoCodes.list, refreshKey);
  const { isBusy, runBusy } = useBusyIds();
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<AdminPromoCode | null>(null);
  const planName = (id: string) => plans.find((plan) => plan.id === id)?.name ?? id;

  const replace = (updated: AdminPromoCode) => setCodes((list) => list?.map((code) => (code.id === updated.id ? updated : code)) ?? [updated]);

  const toggle = (code: AdminPromoCode) =>
    runBusy(code.id, async () => {
      try {
        replace(await adminApi.promoCodes.update(code.id, { active: !code.active }));
        toast.success(_(code.active ? 'admin.promo.switchedOff' : 'admin.promo.switchedOn'));
      } catch (err) {
        toast.error(errorMessage(err, _('admin.promo.updateFailed')));
      }
    });

  const remove = (code: AdminPromoCode) =>
    runBusy(code.id, async () => {
      try {
        await adminApi.promoCodes.remove(code.id);
        setCodes((list) => list?.filter((item) => item.id !== code.id) ?? null);
        toast.success(_('admin.promo.deleted'));
      } catch (err) {
        toast.error(errorMessage(err, _('admin.promo.deleteFailed')));
      } finally {
        setToDelete(null);
      }
    });

  return (
    <TabSection title={_('admin.promo.title')}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-3xl text-sm text-slate-600">{_('admin.promo.intro')}</p>
        <button type="button" onClick={() => setCreating(true)} className={buttonClass.primary}>
          {_('admin.promo.create')}
        </button>
      </div>
      {loadState === 'failed' && <AlertBox>{_('admin.promo.loadFailed')}</AlertBox>}
      {loadState === 'loading' && !codes ? (
        <Loading />
      ) : (
        <AdminTable
          caption={_('admin.promo.title')}
          columns={COLUMN_IDS.map((column) => _(column))}
          busy={loadState === 'loading'}
          isEmpty={codes?.length === 0}
          emptyText={_('admin.promo.empty')}
          pinLastColumn
        >
          {codes?.map((code) => (
            <tr key={code.id}>
              <Cell className="font-mono font-medium whitespace-nowrap text-slate-900">
                <bdi>{code.code}</bdi>
                {code.referral && <span className="block font-sans text-xs font-normal text-slate-500">{_('admin.promo.referralCode')}</span>}
              </Cell>
              <Cell>
                <DiscountText code={code} />
              </Cell>
              <Cell>{code.planIds ? code.planIds.map(planName).join(', ') : _('admin.promo.allPlans')}</Cell>
              <Cell className="whitespace-nowrap tabular-nums">
                {code.maxRedemptions === null ? format.number(code.used) : `${format.number(code.used)} / ${format.number(code.maxRedemptions)}`}
                {code.oncePerCustomer && <span className="block text-xs text-slate-500">{_('admin.promo.oncePerCustomerShort')}</span>}
              </Cell>
              <Cell className="whitespace-nowrap text-xs">
                {code.startsAt && <span className="block">{_('admin.promo.from', { date: format.dateTime(code.startsAt) })}</span>}
                {code.endsAt ? <span className="block">{_('admin.promo.until', { date: format.dateTime(code.endsAt) })}</span> : !code.startsAt && '—'}
              </Cell>
              <Cell className="whitespace-nowrap tabular-nums">
                {format.number(code.paidCount)}
                {code.discountTotal > 0 && (
                  <span className="block text-xs text-slate-500">
                    {_('admin.promo.discountTotal', { amount: format.money(code.discountTotal, code.currency ?? currency) })}
                  </span>
                )}
              </Cell>
              <Cell>
                <ActiveBadge active={code.active} />
              </Cell>
              <Cell>
                <div className="flex gap-2">
                  <button type="button" onClick={() => void toggle(code)} disabled={isBusy(code.id)} className={rowButtonClass.neutral}>
                    {code.active ? _('admin.row.disable') : _('admin.row.enable')}
                    <span className="sr-only"> {code.code}</span>
                  </button>
                  {code.used === 0 && code.paidCount === 0 && (
                    <button type="button" onClick={() => setToDelete(code)} disabled={isBusy(code.id)} className={rowButtonClass.danger}>
                      {_('admin.common.delete')}
                      <span className="sr-only"> {code.code}</span>
                    </button>
                  )}
                </div>
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}
      {creating && (
        <PromoCodeFormDialog
          plans={plans}
          onClose={() => setCreating(false)}
          onSaved={(code) => {
            setCodes((list) => [code, ...(list ?? [])]);
            toast.success(_('admin.promo.created'));
            setCreating(false);
          }}
        />
      )}
      {toDelete && (
        <ConfirmDialog
          title={_('admin.promo.deleteTitle')}
          message={_('admin.promo.confirmDelete', { code: toDelete.code })}
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
