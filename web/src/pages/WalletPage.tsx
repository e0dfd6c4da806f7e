import { useLingui } from '@lingui/react';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { BackToDashboard } from '../components/BackToDashboard';
import type { PaymentMethod } from '../../../shared/billing-schemas.js';
import { currencyDecimals } from '../../../shared/currencies.js';
import { decimalToMinor } from '../../../shared/money.js';
import type { TopUpBody, Wallet, WalletMovement } from '../../../shared/wallet.js';
import { billingApi } from '../api/billing-endpoints';
import { Loading } from '../components/Loading';
import { BUTTON } from '../features/accounts/button-styles';
import { ErrorBanner } from '../features/accounts/ErrorBanner';
import { messageOrFallback } from '../features/accounts/error-message';
import { PaymentPendingBanner } from '../features/billing/PaymentPendingBanner';
import { PAYMENT_METHOD_PRESENTATION } from '../features/billing/payment-methods';
import { readSessionId } from '../features/billing/payment-return';
import { useCancelledCheckout } from '../features/billing/useCancelledCheckout';
import { usePaymentReturn } from '../features/billing/usePaymentReturn';
import { useToast } from '../features/toast/toast-context';
import { useFormat } from '../i18n/format';

type LoadState = { status: 'loading' } | { status: 'loaded'; wallet: Wallet } | { status: 'failed' };

/**
 * The customer's balance: what they can spend here now (referral rewards, top-ups, refunds paid in), the latest
 * movements, and topping it up through any payment method the store takes. Back from a top-up's payment page
 * (`?session_id=…`) it follows the payment until the money is in.
 */
export default function WalletPage() {
  const { _ } = useLingui();
  const toast = useToast();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [problem, setProblem] = useState<string | null>(null);
  const [searchParams] = useSearchParams();
  const load = useCallback((signal?: AbortSignal) => {
    billingApi
      .wallet(signal)
      .then((wallet) => setState({ status: 'loaded', wallet }))
      .catch(() => {
        if (!signal?.aborted) setState({ status: 'failed' });
      });
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);
  const payment = usePaymentReturn(readSessionId(searchParams), {
    onSettled: (final) => {
      if (final.kind === 'toppedUp') toast.success(_('account.wallet.toppedUp'));
      else if (final.kind === 'failed') setProblem(final.error);
      else if (final.kind === 'timedOut') toast.info(_('account.wallet.takingLonger'));
      else if (final.kind === 'error') setProblem(_('pricing.checkout.statusFailed'));
      load();
    },
  });
  useCancelledCheckout({ onCancelled: (message) => toast.info(message), onPaid: () => load(), onProblem: setProblem });

  return (
    <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <BackToDashboard />
      <h1 className="mt-3 text-3xl font-bold tracking-tight text-slate-900">{_('account.wallet.title')}</h1>
      {payment.kind === 'waiting' && (
        <div className="mt-6">
          <PaymentPendingBanner />
        </div>
      )}
      {problem && (
        <div className="mt-6">
          <ErrorBanner message={problem} onDismiss={() => setProblem(null)} />
        </div>
      )}
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && (
        <div className="mt-6">
          <ErrorBanner
            message={_('account.wallet.loadFailed')}
            onDismiss={() => load()}
            action={
              <button type="button" className="shrink-0 font-semibold underline" onClick={() => load()}>
                {_('account.dashboard.tryAgain')}
              </button>
            }
          />
        </div>
      )}
      {state.status === 'loaded' && <WalletView wallet={state.wallet} onProblem={setProblem} />}
    </div>
  );
}

function WalletView({ wallet, onProblem }: { wallet: Wallet; onProblem: (message: string) => void }) {
  const { _ } = useLingui();
  const format = useFormat();
  return (
    <div className="mt-8 space-y-10">
      <section aria-labelledby="wallet-balance" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="wallet-balance" className="text-sm font-medium text-slate-500">
          {_('account.wallet.balance')}
        </h2>
        <p className="mt-1 text-4xl font-bold text-slate-900 tabular-nums" data-testid="wallet-balance">
          {format.money(wallet.balance, wallet.currency)}
        </p>
        {wallet.pending > 0 && (
          <p className="mt-2 text-sm text-slate-600">{_('account.wallet.pending', { amount: format.money(wallet.pending, wallet.currency) })}</p>
        )}
        <p className="mt-3 text-sm leading-6 text-slate-600">{_('account.wallet.explain')}</p>
      </section>
      {wallet.topUp && <TopUpForm wallet={wallet} topUp={wallet.topUp} onProblem={onProblem} />}
      <Movements movements={wallet.movements} />
    </div>
  );
}

/** How much (in the store's major unit, as people type it) and how to pay: a button per method, each sending to its page. */
function TopUpForm({ wallet, topUp, onProblem }: { wallet: Wallet; topUp: NonNullable<Wallet['topUp']>; onProblem: (message: string) => void }) {
  const { _ } = useLingui();
  const format = useFormat();
  const id = useId();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<PaymentMethod | null>(null);
  const decimals = currencyDecimals(wallet.currency);
  const limits = _('account.wallet.limits', { min: format.money(topUp.min, wallet.currency), max: format.money(topUp.max, wallet.currency) });

  async function start(method: PaymentMethod, event?: FormEvent) {
    event?.preventDefault();
    if (busy) return;
    const minor = decimalToMinor(amount.trim().replace(',', '.'), wallet.currency, { roundExtra: false });
    if (minor === null || minor < topUp.min || minor > topUp.max) {
      setError(limits);
      return;
    }
    setError(null);
    setBusy(method);
    try {
      const started = await billingApi.topUp({ amount: minor, method: method as TopUpBody['method'] });
      window.location.assign(started.url);
    } catch (caught) {
      setBusy(null);
      onProblem(messageOrFallback(caught, _('account.wallet.topUpFailed')));
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        {_('account.wallet.topUpTitle')}
      </h2>
      <form className="mt-4 space-y-4" onSubmit={(event) => void start(topUp.methods[0]!, event)} noValidate>
        <div>
          <label htmlFor={`${id}-amount`} className="block text-sm font-medium text-slate-700">
            {_('account.wallet.amount', { currency: wallet.currency.toUpperCase() })}
          </label>
          <input
            id={`${id}-amount`}
            inputMode={decimals > 0 ? 'decimal' : 'numeric'}
            autoComplete="off"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint`}
            className="mt-1 block w-full max-w-xs rounded-lg border border-slate-300 px-3.5 py-2 text-lg tabular-nums shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none aria-[invalid=true]:border-red-400"
          />
          <p id={`${id}-hint`} className={`mt-1 text-sm ${error ? 'text-red-700' : 'text-slate-500'}`} role={error ? 'alert' : undefined}>
            {error ?? limits}
          </p>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          {topUp.methods.map((method, index) => {
            const { Icon, name } = PAYMENT_METHOD_PRESENTATION[method];
            return (
              <button
                key={method}
                type={index === 0 ? 'submit' : 'button'}
                onClick={index === 0 ? undefined : () => void start(method)}
                disabled={busy !== null}
                aria-busy={busy === method || undefined}
                className={`${index === 0 ? BUTTON.primary : BUTTON.secondary} inline-flex items-center justify-center gap-2`}
              >
                <Icon className="size-4 shrink-0" />
                {busy === method ? _('pricing.payment.redirecting') : _('account.wallet.topUpWith', { method: _(name) })}
              </button>
            );
          })}
        </div>
      </form>
    </section>
  );
}

const KIND_LABELS: Record<WalletMovement['kind'], string> = {
  top_up: 'account.wallet.kind.top_up',
  purchase: 'account.wallet.kind.purchase',
  renewal: 'account.wallet.kind.renewal',
  refund: 'account.wallet.kind.refund',
  referral: 'account.wallet.kind.referral',
  adjustment: 'account.wallet.kind.adjustment',
  plan_change: 'account.wallet.kind.plan_change',
};

function Movements({ movements }: { movements: WalletMovement[] }) {
  const { _ } = useLingui();
  const format = useFormat();
  return (
    <section aria-labelledby="wallet-movements">
      <h2 id="wallet-movements" className="text-lg font-semibold text-slate-900">
        {_('account.wallet.movements')}
      </h2>
      {movements.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">{_('account.wallet.noMovements')}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
          {movements.map((movement) => (
            <li key={movement.id} className="flex items-start justify-between gap-4 px-4 py-3">
              <span className="min-w-0">
                <span className="block font-medium text-slate-900">{_(KIND_LABELS[movement.kind])}</span>
                {movement.note && <bdi className="block text-sm break-words text-slate-600">{movement.note}</bdi>}
                <span className="block text-xs text-slate-500">{format.date(movement.createdAt)}</span>
              </span>
              <span className={`shrink-0 font-semibold tabular-nums ${movement.amount < 0 ? 'text-slate-900' : 'text-emerald-700'}`}>
                {movement.amount > 0 ? '+' : ''}
                {format.money(movement.amount, movement.currency)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
