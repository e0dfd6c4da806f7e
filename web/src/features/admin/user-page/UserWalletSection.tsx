import { useLingui } from '@lingui/react';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { decimalToMinor } from '../../../../../shared/money.js';
import type { AdminWallet } from '../../../../../shared/wallet.js';
import { adminApi } from '../../../api/admin-endpoints';
import { useFormat } from '../../../i18n/format';
import { messageOrFallback } from '../../accounts/error-message';
import { useToast } from '../../toast/toast-context';
import { AlertBox } from '../AlertBox';
import { buttonClass, inputClass } from '../admin-ui';

/** What each movement is, for the admin (the customer's wallet page words them the same). */
const KIND_IDS: Record<AdminWallet['movements'][number]['kind'], string> = {
  top_up: 'admin.user.wallet.kind.top_up',
  purchase: 'admin.user.wallet.kind.purchase',
  renewal: 'admin.user.wallet.kind.renewal',
  refund: 'admin.user.wallet.kind.refund',
  referral: 'admin.user.wallet.kind.referral',
  adjustment: 'admin.user.wallet.kind.adjustment',
  plan_change: 'admin.user.wallet.kind.plan_change',
};

/**
 * The customer's balance on their page: what it is, its latest movements, and an adjustment — money put in or
 * taken out with a note the customer sees (audited; never below zero).
 */
export function UserWalletSection({ userId, refreshKey }: { userId: string; refreshKey: unknown }) {
  const { _ } = useLingui();
  const format = useFormat();
  const toast = useToast();
  const id = useId();
  const [wallet, setWallet] = useState<AdminWallet | null>(null);
  const [failed, setFailed] = useState(false);
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        setWallet(await adminApi.users.wallet(userId, signal));
        setFailed(false);
      } catch {
        if (!signal?.aborted) setFailed(true);
      }
    },
    [userId],
  );
  useEffect(() => {
    const controller = new AbortController();
    void load(controller.signal);
    return () => controller.abort();
  }, [load, refreshKey]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!wallet || busy) return;
    const text = amount.trim().replace(',', '.');
    const negative = text.startsWith('-') || text.startsWith('−');
    const minor = decimalToMinor(text.replace(/^[-−+]/, ''), wallet.currency, { roundExtra: false });
    if (minor === null || minor === 0 || !note.trim()) {
      setError(_('admin.user.wallet.invalid'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setWallet(await adminApi.users.adjustWallet(userId, { amount: negative ? -minor : minor, note: note.trim() }));
      setAmount('');
      setNote('');
      toast.success(_('admin.user.wallet.adjusted'));
    } catch (caught) {
      setError(messageOrFallback(caught, _('admin.user.wallet.failed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
        {_('admin.user.wallet.title')}
      </h2>
      {failed && <AlertBox>{_('admin.user.wallet.loadFailed')}</AlertBox>}
      {wallet && (
        <div className="grid gap-6 rounded-xl bg-white p-4 ring-1 ring-slate-200 md:grid-cols-2">
          <div>
            <p className="text-3xl font-bold text-slate-900 tabular-nums" data-testid="admin-wallet-balance">
              {format.money(wallet.balance, wallet.currency)}
            </p>
            {wallet.pending > 0 && (
              <p className="text-sm text-slate-600">{_('admin.user.wallet.pending', { amount: format.money(wallet.pending, wallet.currency) })}</p>
            )}
            {wallet.movements.length === 0 ? (
              <p className="mt-3 text-sm text-slate-600">{_('admin.user.wallet.none')}</p>
            ) : (
              <ul className="mt-3 space-y-1.5 text-sm">
                {wallet.movements.slice(0, 10).map((movement) => (
                  <li key={movement.id} className="flex justify-between gap-3">
                    <span className="min-w-0 text-slate-700">
                      {format.date(movement.createdAt)} · {_(KIND_IDS[movement.kind])}
                      {movement.note && <bdi className="block text-xs break-words text-slate-500">{movement.note}</bdi>}
                    </span>
                    <span className="shrink-0 tabular-nums">
                      {movement.amount > 0 ? '+' : ''}
                      {format.money(movement.amount, movement.currency)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <form onSubmit={(event) => void submit(event)} className="space-y-3 text-sm" noValidate>
            <h3 className="font-medium text-slate-900">{_('admin.user.wallet.adjust')}</h3>
            <label className="block">
              <span className="font-medium text-slate-700">{_('admin.user.wallet.amount', { currency: wallet.currency.toUpperCase() })}</span>
              <input
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
                inputMode="decimal"
                className={inputClass}
                aria-describedby={`${id}-hint`}
              />
              <span id={`${id}-hint`} className="mt-1 block text-xs text-slate-500">
                {_('admin.user.wallet.amountHint')}
              </span>
            </label>
            <label className="block">
              <span className="font-medium text-slate-700">{_('admin.user.wallet.note')}</span>
              <input value={note} maxLength={200} onChange={(event) => setNote(event.target.value)} className={inputClass} />
            </label>
            {error && (
              <p role="alert" className="text-red-700">
                {error}
              </p>
            )}
            <button type="submit" aria-disabled={busy} className={`${buttonClass.secondary} aria-disabled:opacity-60`}>
              {busy ? _('admin.user.wallet.saving') : _('admin.user.wallet.save')}
            </button>
          </form>
        </div>
      )}
    </section>
  );
}
