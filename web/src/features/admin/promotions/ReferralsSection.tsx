import { useLingui } from '@lingui/react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { decimalToMinor, minorToDecimal } from '../../../../../shared/money.js';
import type { AdminReferral, ReferralSettings, ReferralStatus, UpdateReferralSettingsBody } from '../../../../../shared/referrals.js';
import { adminApi } from '../../../api/admin-endpoints';
import { Loading } from '../../../components/Loading';
import { useFormat } from '../../../i18n/format';
import { useToast } from '../../toast/toast-context';
import { AdminTable, Cell } from '../AdminTable';
import { AlertBox } from '../AlertBox';
import { buttonClass, rowButtonClass } from '../admin-ui';
import { errorMessage, fieldErrors } from '../admin-errors';
import { CheckboxField, SelectField, TextField } from '../form-fields';
import { TabSection } from '../TabSection';
import { useAdminResource } from '../useAdminResource';
import { useBusyIds } from '../useBusyIds';
import { customerName } from '../../../components/header/customer-name';

const COLUMN_IDS = [
  'admin.referrals.column.date',
  'admin.referrals.column.referrer',
  'admin.referrals.column.referred',
  'admin.referrals.column.status',
  'admin.referrals.column.earned',
  'admin.column.actions',
] as const;
const TOP_COLUMN_IDS = [
  'admin.referrals.column.referrer',
  'admin.referrals.column.signedUp',
  'admin.referrals.column.paid',
  'admin.referrals.column.held',
  'admin.referrals.column.earned',
] as const;

interface FormValues {
  enabled: boolean;
  rewardKind: 'percent' | 'fixed';
  percent: string;
  months: string;
  amount: string;
  benefitKind: ReferralSettings['referredBenefit']['kind'];
  benefitPercent: string;
  benefitDays: string;
  windowDays: string;
}

function valuesOf(settings: ReferralSettings, currency: string): FormValues {
  const { reward, referredBenefit } = settings;
  return {
    enabled: settings.enabled,
    rewardKind: reward.kind,
    percent: reward.kind === 'percent' ? String(reward.percent) : '10',
    months: reward.kind === 'percent' ? String(reward.months) : '12',
    amount: reward.kind === 'fixed' ? minorToDecimal(reward.amount, currency) : '',
    benefitKind: referredBenefit.kind,
    benefitPercent: referredBenefit.kind === 'discount' ? String(referredBenefit.percentOff) : '10',
    benefitDays: referredBenefit.kind === 'days' ? String(referredBenefit.days) : '7',
    windowDays: String(settings.refundWindowDays),
  };
}

function bodyOf(values: FormValues, currency: string): UpdateReferralSettingsBody {
  return {
    enabled: values.enabled,
    reward:
      values.rewardKind === 'percent'
        ? { kind: 'percent', percent: Number(values.percent), months: Number(values.months) }
        : { kind: 'fixed', amount: decimalToMinor(values.amount, currency) ?? Number.NaN },
    referredBenefit:
      values.benefitKind === 'none'
        ? { kind: 'none' }
        : values.benefitKind === 'days'
          ? { kind: 'days', days: Number(values.benefitDays) }
          : { kind: 'discount', percentOff: Number(values.benefitPercent) },
    refundWindowDays: Number(values.windowDays),
  };
}

/** The programme's terms: what the referrer earns, what the friend gets, the refund window. */
function SettingsForm({ settings, currency, onSaved }: { settings: ReferralSettings; currency: string; onSaved: (saved: ReferralSettings) => void }) {
  const { _ } = useLingui();
  const toast = useToast();
  const [values, setValues] = useState(() => valuesOf(settings, currency));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  useEffect(() => setValues(valuesOf(settings, currency)), [settings, currency]);
  const set =
    <K extends keyof FormValues>(key: K) =>
    (value: FormValues[K]) =>
      setValues((v) => ({ ...v, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFields({});
    try {
      onSaved(await adminApi.referrals.saveSettings(bodyOf(values, currency)));
      toast.success(_('admin.referrals.saved'));
    } catch (err) {
      setError(errorMessage(err, _('admin.referrals.saveFailed')));
      setFields(fieldErrors(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <CheckboxField
        label={_('admin.referrals.enabled')}
        checked={values.enabled}
        onCheckedChange={set('enabled')}
        hint={_('admin.referrals.enabledHint')}
        disabled={busy}
      />
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <SelectField
          label={_('admin.referrals.rewardKind')}
          value={values.rewardKind}
          onValueChange={(v) => set('rewardKind')(v as FormValues['rewardKind'])}
          disabled={busy}
        >
          <option value="percent">{_('admin.referrals.rewardPercent')}</option>
          <option value="fixed">{_('admin.referrals.rewardFixed')}</option>
        </SelectField>
        {values.rewardKind === 'percent' ? (
          <>
            <TextField
              label={_('admin.referrals.percent')}
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              value={values.percent}
              onValueChange={set('percent')}
              error={fields['reward.percent']}
              disabled={busy}
            />
            <TextField
              label={_('admin.referrals.months')}
              type="number"
              inputMode="numeric"
              min={1}
              max={120}
              value={values.months}
              onValueChange={set('months')}
              error={fields['reward.months']}
              disabled={busy}
            />
          </>
        ) : (
          <TextField
            label={_('admin.referrals.amount', { currency: currency.toUpperCase() })}
            inputMode="decimal"
            value={values.amount}
            onValueChange={set('amount')}
            error={fields['reward.amount']}
            disabled={busy}
          />
        )}
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <SelectField
          label={_('admin.referrals.benefitKind')}
          value={values.benefitKind}
          onValueChange={(v) => set('benefitKind')(v as FormValues['benefitKind'])}
          disabled={busy}
        >
          <option value="none">{_('admin.referrals.benefitNone')}</option>
          <option value="discount">{_('admin.referrals.benefitDiscount')}</option>
          <option value="days">{_('admin.referrals.benefitDays')}</option>
        </SelectField>
        {values.benefitKind === 'discount' && (
          <TextField
            label={_('admin.referrals.benefitPercent')}
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            value={values.benefitPercent}
            onValueChange={set('benefitPercent')}
            error={fields['referredBenefit.percentOff']}
            disabled={busy}
          />
        )}
        {values.benefitKind === 'days' && (
          <TextField
            label={_('admin.referrals.benefitDaysCount')}
            hint={_('admin.referrals.benefitDaysHint')}
            type="number"
            inputMode="numeric"
            min={1}
            max={365}
            value={values.benefitDays}
            onValueChange={set('benefitDays')}
            error={fields['referredBenefit.days']}
            disabled={busy}
          />
        )}
        <TextField
          label={_('admin.referrals.window')}
          hint={_('admin.referrals.windowHint')}
          type="number"
          inputMode="numeric"
          min={0}
          max={180}
          value={values.windowDays}
          onValueChange={set('windowDays')}
          error={fields.refundWindowDays}
          disabled={busy}
        />
      </div>
      {error && <AlertBox reveal>{error}</AlertBox>}
      <button type="submit" disabled={busy} className={buttonClass.primary}>
        {busy ? _('admin.common.saving') : _('admin.referrals.save')}
      </button>
    </form>
  );
}

/**
 * Referrals: the programme's terms, every referral (a held one with why: same card, device or address) with
 * release and void, and the referrers who brought the most paying customers.
 */
export function ReferralsSection({ refreshKey, currency }: { refreshKey: number; currency: string }) {
  const { _ } = useLingui();
  const format = useFormat();
  const toast = useToast();
  const [status, setStatus] = useState<ReferralStatus | ''>('');
  const [reload, setReload] = useState(0);
  // A new filter, or a decision made, loads the list again.
  const load = useCallback((signal: AbortSignal) => adminApi.referrals.list(status || undefined, signal), [status, reload]);
  const { data: page, setData: setPage, loadState } = useAdminResource(load, refreshKey);
  const { isBusy, runBusy } = useBusyIds();

  const decide = (referral: AdminReferral, action: 'release' | 'void') =>
    runBusy(referral.id, async () => {
      try {
        await adminApi.referrals[action](referral.id);
        toast.success(action === 'release' ? _('admin.referrals.released') : _('admin.referrals.voided'));
        setReload((n) => n + 1);
      } catch (err) {
        toast.error(errorMessage(err, _('admin.referrals.decideFailed')));
      }
    });

  const earned = (amounts: Array<{ currency: string; amount: number }>) =>
    amounts.length ? amounts.map((a) => format.money(a.amount, a.currency)).join(' · ') : '—';
  const statusLabel = (referral: AdminReferral) =>
    referral.status === 'held' && referral.holdReason
      ? _('admin.referrals.heldBecause', { reason: _(`admin.referrals.reason.${referral.holdReason}`) })
      : _(`admin.referrals.status.${referral.status}`);

  return (
    <TabSection title={_('admin.referrals.title')}>
      <p className="max-w-3xl text-sm text-slate-600">{_('admin.referrals.intro')}</p>
      {page && <SettingsForm settings={page.settings} currency={currency} onSaved={(settings) => setPage((p) => (p ? { ...p, settings } : p))} />}
      {loadState === 'failed' && <AlertBox>{_('admin.referrals.loadFailed')}</AlertBox>}
      {loadState === 'loading' && !page ? (
        <Loading />
      ) : (
        page && (
          <>
            <div className="flex flex-wrap items-end gap-4">
              <SelectField label={_('admin.referrals.show')} value={status} onValueChange={(v) => setStatus(v as ReferralStatus | '')}>
                <option value="">{_('admin.referrals.showAll')}</option>
                {(['held', 'active', 'released', 'void'] as const).map((s) => (
                  <option key={s} value={s}>
                    {_(`admin.referrals.status.${s}`)} ({format.number(page.counts[s])})
                  </option>
                ))}
              </SelectField>
            </div>
            <AdminTable
              caption={_('admin.referrals.title')}
              columns={COLUMN_IDS.map((c) => _(c))}
              busy={loadState === 'loading'}
              isEmpty={page.referrals.length === 0}
              emptyText={_('admin.referrals.empty')}
              pinLastColumn
            >
              {page.referrals.map((referral) => (
                <tr key={referral.id}>
                  <Cell className="whitespace-nowrap">{format.dateTime(referral.createdAt)}</Cell>
                  <Cell>
                    <bdi>{customerName(referral.referrer, _)}</bdi>
                  </Cell>
                  <Cell>
                    <bdi>{customerName(referral.referred, _)}</bdi>
                    {referral.firstPaidAt && (
                      <span className="block text-xs text-slate-500">{_('admin.referrals.paidOn', { date: format.date(referral.firstPaidAt) })}</span>
                    )}
                  </Cell>
                  <Cell className={referral.status === 'held' ? 'font-medium text-amber-800' : ''}>{statusLabel(referral)}</Cell>
                  <Cell className="tabular-nums">{earned(referral.earned)}</Cell>
                  <Cell>
                    <div className="flex gap-2">
                      {(referral.status === 'held' || referral.status === 'void') && (
                        <button
                          type="button"
                          disabled={isBusy(referral.id)}
                          onClick={() => void decide(referral, 'release')}
                          className={rowButtonClass.neutral}
                        >
                          {_('admin.referrals.release')}
                        </button>
                      )}
                      {referral.status !== 'void' && (
                        <button type="button" disabled={isBusy(referral.id)} onClick={() => void decide(referral, 'void')} className={rowButtonClass.danger}>
                          {_('admin.referrals.void')}
                        </button>
                      )}
                    </div>
                  </Cell>
                </tr>
              ))}
            </AdminTable>
            <h3 className="text-base font-semibold text-slate-900">{_('admin.referrals.top')}</h3>
            <AdminTable
              caption={_('admin.referrals.top')}
              columns={TOP_COLUMN_IDS.map((c) => _(c))}
              busy={false}
              isEmpty={page.top.length === 0}
              emptyText={_('admin.referrals.empty')}
            >
              {page.top.map((top) => (
                <tr key={top.user.id}>
                  <Cell>
                    <bdi>{customerName(top.user, _)}</bdi>
                  </Cell>
                  <Cell className="tabular-nums">{format.number(top.signedUp)}</Cell>
                  <Cell className="tabular-nums">{format.number(top.paid)}</Cell>
                  <Cell className="tabular-nums">{format.number(top.held)}</Cell>
                  <Cell className="tabular-nums">{earned(top.earned)}</Cell>
                </tr>
              ))}
            </AdminTable>
          </>
        )
      )}
    </TabSection>
  );
}
