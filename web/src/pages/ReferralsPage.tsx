import { useLingui } from '@lingui/react';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { BackToDashboard } from '../components/BackToDashboard';
import { CREDIT_MIN_CHARGE, HELD_NOTE, PROVIDER_BALANCE_NOTE, type CreditMovement, type MyReferrals, type ReferralTerms } from '../../../shared/referrals.js';
import { billingApi } from '../api/billing-endpoints';
import { telegramLinkApi } from '../api/telegram-link-endpoints';
import { Loading } from '../components/Loading';
import { BUTTON } from '../features/accounts/button-styles';
import { ErrorBanner } from '../features/accounts/ErrorBanner';
import { useCopyWithToast } from '../features/accounts/useCopyWithToast';
import { QrCode } from '../features/setup/QrCode';
import { useStoreMoney } from '../features/config/useStoreMoney';
import { useFormat } from '../i18n/format';

type LoadState = { status: 'loading' } | { status: 'loaded'; data: MyReferrals } | { status: 'failed' };

/** The customer's referral link (copy, QR), who it brought, the credit it earned, and exactly what it earns. */
export default function ReferralsPage() {
  const { _ } = useLingui();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const load = useCallback((signal?: AbortSignal) => {
    setState({ status: 'loading' });
    billingApi
      .myReferrals(signal)
      .then((data) => setState({ status: 'loaded', data }))
      .catch(() => {
        if (!signal?.aborted) setState({ status: 'failed' });
      });
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <BackToDashboard />
      <h1 className="mt-3 text-3xl font-bold tracking-tight text-slate-900">{_('account.referrals.title')}</h1>
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && (
        <div className="mt-6">
          <ErrorBanner
            message={_('account.referrals.loadFailed')}
            onDismiss={() => load()}
            action={
              <button type="button" className="shrink-0 font-semibold underline" onClick={() => load()}>
                {_('account.dashboard.tryAgain')}
              </button>
            }
          />
        </div>
      )}
      {state.status === 'loaded' && <Referrals data={state.data} />}
    </div>
  );
}

function Referrals({ data }: { data: MyReferrals }) {
  const { _ } = useLingui();
  const format = useFormat();
  const money = useStoreMoney();
  const credit = data.credit.length > 0 ? data.credit : [];

  return (
    <div className="mt-6 space-y-8">
      {!data.enabled && <p className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-900">{_('account.referrals.off')}</p>}

      {data.enabled && (
        <section aria-labelledby="referral-link" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 id="referral-link" className="text-lg font-semibold text-slate-900">
            {_('account.referrals.linkTitle')}
          </h2>
          <p className="mt-1 text-slate-600">{_('account.referrals.linkHelp')}</p>
          <div className="mt-4 flex flex-col gap-6 sm:flex-row sm:items-start">
            <div className="min-w-0 flex-1">
              <label htmlFor="referral-link-input" className="sr-only">
                {_('account.referrals.linkTitle')}
              </label>
              <CopyField id="referral-link-input" value={data.link} button={BUTTON.primary} />
              <TelegramInvitation code={data.code} />
              <Terms terms={data.terms} />
            </div>
            <QrCode value={data.link} label={_('account.referrals.qrLabel')} />
          </div>
        </section>
      )}

      <section aria-labelledby="referral-numbers">
        <h2 id="referral-numbers" className="sr-only">
          {_('account.referrals.numbers')}
        </h2>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Figure label={_('account.referrals.signedUp')} value={format.number(data.signedUp)} />
          <Figure label={_('account.referrals.paid')} value={format.number(data.paid)} />
          <Figure
            label={_('account.referrals.pending')}
            value={credit.length ? credit.map((c) => format.money(c.pending, c.currency)).join(format.separator) : '—'}
          />
          <Figure
            label={_('account.referrals.available')}
            value={credit.length ? credit.map((c) => format.money(c.available, c.currency)).join(format.separator) : '—'}
          />
        </dl>
        <p className="mt-3 text-sm text-slate-600">{_('account.referrals.pendingHelp', { days: data.terms.refundWindowDays })}</p>
        <p className="mt-1 text-sm text-slate-600">
          {_('account.referrals.spendHelp', { minimum: money(CREDIT_MIN_CHARGE) })}{' '}
          <Link to="/wallet" className="font-medium text-indigo-700 underline">
            {_('account.referrals.seeBalance')}
          </Link>
        </p>
      </section>

      <section aria-labelledby="referral-movements">
        <h2 id="referral-movements" className="text-lg font-semibold text-slate-900">
          {_('account.referrals.movements')}
        </h2>
        {data.movements.length === 0 ? (
          <p className="mt-2 text-slate-600">{_('account.referrals.noMovements')}</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-start text-sm">
              <thead className="text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pe-4 text-start font-medium">
                    {_('account.referrals.when')}
                  </th>
                  <th scope="col" className="py-2 pe-4 text-start font-medium">
                    {_('account.referrals.what')}
                  </th>
                  <th scope="col" className="py-2 pe-4 text-end font-medium">
                    {_('account.referrals.amount')}
                  </th>
                  <th scope="col" className="py-2 text-start font-medium">
                    {_('account.referrals.availableFrom')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data.movements.map((movement) => (
                  <tr key={movement.id}>
                    <td className="py-2 pe-4 whitespace-nowrap">{format.date(movement.createdAt)}</td>
                    <td className="py-2 pe-4">{movementLabel(_, movement)}</td>
                    <td className={`py-2 pe-4 text-end tabular-nums ${movement.amount < 0 ? 'text-rose-700' : 'text-emerald-700'}`}>
                      {movement.amount > 0 ? '+' : ''}
                      {format.money(movement.amount, movement.currency)}
                    </td>
                    <td className="py-2 whitespace-nowrap">
                      {movement.kind === 'earned' || movement.kind === 'reinstated' ? format.date(movement.availableAt) : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}

/** Exactly what the link earns, and for how long: one-time or recurring, said in words. */
function Terms({ terms }: { terms: ReferralTerms }) {
  const { _ } = useLingui();
  const format = useFormat();
  const { reward, referredBenefit } = terms;
  return (
    <ul className="mt-4 list-disc space-y-1 ps-5 text-slate-700">
      <li>
        {reward.kind === 'percent'
          ? _('account.referrals.earnPercent', { percent: format.number(reward.percent), months: reward.months })
          : _('account.referrals.earnFixed', { amount: format.money(reward.amount, reward.currency) })}
      </li>
      {referredBenefit.kind === 'discount' && <li>{_('account.referrals.friendDiscount', { percent: format.number(referredBenefit.percentOff) })}</li>}
      {referredBenefit.kind === 'days' && <li>{_('account.referrals.friendDays', { days: referredBenefit.days })}</li>}
      <li>{_('account.referrals.noSelf')}</li>
    </ul>
  );
}

function movementLabel(_: ReturnType<typeof useLingui>['_'], movement: CreditMovement): string {
  switch (movement.kind) {
    case 'earned':
      return _('account.referrals.kind.earned');
    case 'cancelled':
      if (movement.note === HELD_NOTE) return _('account.referrals.kind.held');
      return movement.note === 'disputed'
        ? _('account.referrals.kind.disputed')
        : movement.note === 'voided'
          ? _('account.referrals.kind.voided')
          : _('account.referrals.kind.refunded');
    case 'reinstated':
      return movement.note === HELD_NOTE ? _('account.referrals.kind.released') : _('account.referrals.kind.reinstated');
    case 'spent':
      return movement.note === PROVIDER_BALANCE_NOTE ? _('account.referrals.kind.toRenewal') : _('account.referrals.kind.spent');
    case 'restored':
      return movement.note === 'refunded' ? _('account.referrals.kind.restoredRefund') : _('account.referrals.kind.restored');
  }
}

/** The same invitation through the store's Telegram bot (`t.me/<bot>?start=ref_<code>`), while the store has one. */
function TelegramInvitation({ code }: { code: string }) {
  const { _ } = useLingui();
  const [bot, setBot] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    telegramLinkApi
      .status(controller.signal)
      .then((status) => setBot(status.bot?.username ?? null))
      .catch(() => setBot(null));
    return () => controller.abort();
  }, []);
  if (!bot) return null;
  const link = `https://t.me/${bot}?start=ref_${code}`;
  return (
    <div className="mt-3">
      <label htmlFor="referral-telegram-input" className="text-sm text-slate-600">
        {_('account.referrals.telegramLink')}
      </label>
      <div className="mt-1">
        <CopyField id="referral-telegram-input" value={link} button={BUTTON.secondary} />
      </div>
    </div>
  );
}

/** A link to share, read-only (selected on focus), with its Copy button. */
function CopyField({ id, value, button }: { id: string; value: string; button: string }) {
  const { _ } = useLingui();
  const copy = useCopyWithToast();
  return (
    <div className="flex gap-2">
      <input
        id={id}
        readOnly
        value={value}
        dir="ltr"
        className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 font-mono text-sm text-slate-800"
        onFocus={(e) => e.currentTarget.select()}
      />
      <button type="button" className={button} onClick={() => void copy(value, _('account.referrals.copied'))}>
        {_('account.referrals.copy')}
      </button>
    </div>
  );
}
