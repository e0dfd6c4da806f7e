import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { AdminGiftBatch, GiftBatchCreated } from '../../../../../shared/gift-codes.js';
import type { AdminPlan } from '../../../../../shared/plans.js';
import { adminApi } from '../../../api/admin-endpoints';
import { Loading } from '../../../components/Loading';
import { useFormat } from '../../../i18n/format';
import { useToast } from '../../toast/toast-context';
import { AdminTable, Cell } from '../AdminTable';
import { AlertBox } from '../AlertBox';
import { buttonClass, rowButtonClass } from '../admin-ui';
import { errorMessage, fieldErrors } from '../admin-errors';
import { ConfirmDialog } from '../ConfirmDialog';
import { SelectField, TextAreaField, TextField } from '../form-fields';
import { TabSection } from '../TabSection';
import { useAdminResource } from '../useAdminResource';
import { useBusyIds } from '../useBusyIds';

const COLUMN_IDS = [
  'admin.gift.column.created',
  'admin.gift.column.plan',
  'admin.gift.column.codes',
  'admin.gift.column.redeemed',
  'admin.gift.column.note',
  'admin.column.actions',
] as const;

/** Issue a batch: a plan and how many codes. The new codes are shown once here, and the CSV has them again. */
function IssueForm({ plans, onIssued }: { plans: readonly AdminPlan[]; onIssued: (created: GiftBatchCreated) => void }) {
  const { _ } = useLingui();
  const [planId, setPlanId] = useState('');
  const [count, setCount] = useState('10');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFields({});
    try {
      onIssued(await adminApi.giftCodes.create({ planId, count: Number(count), ...(note.trim() ? { note: note.trim() } : {}) }));
    } catch (err) {
      setError(errorMessage(err, _('admin.gift.createFailed')));
      setFields(fieldErrors(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      className="grid items-start gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[2fr_1fr_2fr_auto]"
    >
      <SelectField label={_('admin.gift.plan')} value={planId} onValueChange={setPlanId} error={fields.planId} disabled={busy}>
        <option value="">{_('admin.gift.pickPlan')}</option>
        {plans.map((plan) => (
          <option key={plan.id} value={plan.id}>
            {plan.name}
          </option>
        ))}
      </SelectField>
      <TextField
        label={_('admin.gift.count')}
        type="number"
        inputMode="numeric"
        min={1}
        max={1000}
        step={1}
        value={count}
        onValueChange={setCount}
        error={fields.count}
        disabled={busy}
      />
      <TextField label={_('admin.gift.note')} value={note} onValueChange={setNote} error={fields.note} maxLength={200} disabled={busy} />
      <button type="submit" disabled={busy} className={`${buttonClass.primary} sm:mt-6`}>
        {busy ? _('admin.common.saving') : _('admin.gift.issue')}
      </button>
      {error && (
        <div className="sm:col-span-4">
          <AlertBox reveal>{error}</AlertBox>
        </div>
      )}
    </form>
  );
}

/** Gift codes: issue a batch for a plan, download each batch's codes as CSV, see how many were redeemed, revoke the rest. */
export function GiftCodesSection({ refreshKey, plans }: { refreshKey: number; plans: readonly AdminPlan[] }) {
  const { _ } = useLingui();
  const format = useFormat();
  const toast = useToast();
  const { data: batches, setData: setBatches, loadState } = useAdminResource(adminApi.giftCodes.list, refreshKey);
  const { isBusy, runBusy } = useBusyIds();
  const [issued, setIssued] = useState<GiftBatchCreated | null>(null);
  const [toRevoke, setToRevoke] = useState<AdminGiftBatch | null>(null);

  const revoke = (batch: AdminGiftBatch) =>
    runBusy(batch.id, async () => {
      try {
        const updated = await adminApi.giftCodes.revokeUnused(batch.id);
        setBatches((list) => list?.map((item) => (item.id === updated.id ? updated : item)) ?? null);
        toast.success(_('admin.gift.revoked'));
      } catch (err) {
        toast.error(errorMessage(err, _('admin.gift.revokeFailed')));
      } finally {
        setToRevoke(null);
      }
    });

  return (
    <TabSection title={_('admin.gift.title')}>
      <p className="max-w-3xl text-sm text-slate-600">{_('admin.gift.intro')}</p>
      <IssueForm
        plans={plans}
        onIssued={(created) => {
          setIssued(created);
          setBatches((list) => [created.batch, ...(list ?? [])]);
          toast.success(_('admin.gift.issued', { count: created.codes.length }));
        }}
      />
      {issued && (
        <div className="space-y-2 rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-200">
          <TextAreaField
            label={_('admin.gift.newCodes', { count: issued.codes.length, plan: issued.batch.planName })}
            value={issued.codes.join('\n')}
            onValueChange={() => undefined}
            readOnly
            rows={Math.min(8, issued.codes.length)}
          />
          <a href={adminApi.giftCodes.csvUrl(issued.batch.id)} download className={buttonClass.secondary}>
            {_('admin.gift.downloadCsv')}
          </a>
        </div>
      )}
      {loadState === 'failed' && <AlertBox>{_('admin.gift.loadFailed')}</AlertBox>}
      {loadState === 'loading' && !batches ? (
        <Loading />
      ) : (
        <AdminTable
          caption={_('admin.gift.title')}
          columns={COLUMN_IDS.map((column) => _(column))}
          busy={loadState === 'loading'}
          isEmpty={batches?.length === 0}
          emptyText={_('admin.gift.empty')}
          pinLastColumn
        >
          {batches?.map((batch) => (
            <tr key={batch.id}>
              <Cell className="whitespace-nowrap">{format.dateTime(batch.createdAt)}</Cell>
              <Cell className="font-medium text-slate-900">
                <bdi>{batch.planName}</bdi>
              </Cell>
              <Cell className="tabular-nums">{format.number(batch.count)}</Cell>
              <Cell className="whitespace-nowrap tabular-nums">
                {format.number(batch.redeemed)}
                {batch.revoked > 0 && <span className="block text-xs text-slate-500">{_('admin.gift.revokedCount', { count: batch.revoked })}</span>}
              </Cell>
              <Cell>{batch.note ? <bdi>{batch.note}</bdi> : '—'}</Cell>
              <Cell>
                <div className="flex gap-2">
                  <a href={adminApi.giftCodes.csvUrl(batch.id)} download className={rowButtonClass.neutral}>
                    {_('admin.gift.csv')}
                  </a>
                  {batch.redeemed + batch.revoked < batch.count && (
                    <button type="button" onClick={() => setToRevoke(batch)} disabled={isBusy(batch.id)} className={rowButtonClass.danger}>
                      {_('admin.gift.revoke')}
                    </button>
                  )}
                </div>
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}
      {toRevoke && (
        <ConfirmDialog
          title={_('admin.gift.revokeTitle')}
          message={_('admin.gift.confirmRevoke', { count: toRevoke.count - toRevoke.redeemed - toRevoke.revoked })}
          confirmLabel={_('admin.gift.revoke')}
          busyLabel={_('admin.common.saving')}
          busy={isBusy(toRevoke.id)}
          onConfirm={() => void revoke(toRevoke)}
          onCancel={() => setToRevoke(null)}
        />
      )}
    </TabSection>
  );
}
