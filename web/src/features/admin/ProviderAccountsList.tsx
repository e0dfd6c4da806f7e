import { useLingui } from '@lingui/react';
import { useState } from 'react';
import type { ProviderMethod } from '../../../../shared/billing-schemas.js';
import type { ProviderAccountSummary } from '../../../../shared/billing.js';
import { adminApi } from '../../api/admin-endpoints';
import { useToast } from '../toast/toast-context';
import { AlertBox } from './AlertBox';
import { errorMessage } from './admin-errors';
import { rowButtonClass } from './admin-ui';
import { ConfirmDialog } from './ConfirmDialog';
import { SettingsSection } from './SettingsSection';
import { useAdminResource } from './useAdminResource';

const loadAccounts = (signal: AbortSignal) => adminApi.payments.listAccounts(signal);

/**
 * Under each provider's settings: the accounts switched away from (another Stripe account, BTCPay store,
 * YooKassa shop or Crypto Pay app) whose keys are kept for the payments they took, with the subscriptions each still bills
 * and a way to end them there. Nothing is shown while every payment is at the account in force.
 */
/** Each provider's title and introduction. */
const TEXTS: Record<ProviderMethod, { title: string; intro: string }> = {
  card: { title: 'adminSettings.accounts.titleCard', intro: 'adminSettings.accounts.introCard' },
  crypto: { title: 'adminSettings.accounts.titleCrypto', intro: 'adminSettings.accounts.introCrypto' },
  yookassa: { title: 'adminSettings.accounts.titleYookassa', intro: 'adminSettings.accounts.introYookassa' },
  cryptopay: { title: 'adminSettings.accounts.titleCryptopay', intro: 'adminSettings.accounts.introCryptopay' },
  stars: { title: 'adminSettings.accounts.titleStars', intro: 'adminSettings.accounts.introStars' },
};

export function ProviderAccountsList({ method, refreshKey }: { method: ProviderMethod; refreshKey: number }) {
  const { _ } = useLingui();
  const toast = useToast();
  const { data, setData, loadState } = useAdminResource(loadAccounts, refreshKey);
  const [pending, setPending] = useState<ProviderAccountSummary | null>(null);
  const [busy, setBusy] = useState(false);
  const others = (data ?? []).filter((account) => account.method === method && !account.inForce);

  if (loadState === 'failed' && !data) return <AlertBox>{_('adminSettings.accounts.loadFailed')}</AlertBox>;
  if (others.length === 0) return null;

  async function endAll(account: ProviderAccountSummary) {
    setBusy(true);
    try {
      const result = await adminApi.payments.endAccountSubscriptions(account.id);
      setData((list) => list && list.map((item) => (item.id === result.account.id ? result.account : item)));
      const message = _('adminSettings.accounts.ended', { ended: result.ended, failed: result.failed });
      if (result.failed > 0) toast.error(message);
      else toast.success(message);
    } catch (err) {
      toast.error(errorMessage(err, _('adminSettings.accounts.endFailed')));
    } finally {
      setBusy(false);
      setPending(null);
    }
  }

  return (
    <SettingsSection title={_(TEXTS[method].title)}>
      <p className="mt-1 text-sm text-slate-600">{_(TEXTS[method].intro)}</p>
      <ul className="mt-3 space-y-3">
        {others.map((account) => (
          <li key={account.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 px-3 py-2">
            <span className="text-sm">
              <span className="block font-mono text-slate-900 wrap-anywhere">{account.account}</span>
              <span className="block text-slate-600">
                {_('adminSettings.accounts.live', { count: account.liveSubscriptions })}
                {' · '}
                {_('adminSettings.accounts.renewing', { count: account.renewingSubscriptions })}
              </span>
            </span>
            {method === 'card' && (
              <button
                type="button"
                disabled={busy || account.renewingSubscriptions === 0}
                onClick={() => setPending(account)}
                className={`${rowButtonClass.danger} whitespace-nowrap`}
              >
                {_('adminSettings.accounts.endAll')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {pending && (
        <ConfirmDialog
          title={_('adminSettings.accounts.endTitle')}
          message={_('adminSettings.accounts.endQuestion', { count: pending.renewingSubscriptions, account: pending.account })}
          confirmLabel={_('adminSettings.accounts.endAll')}
          busyLabel={_('adminSettings.accounts.ending')}
          cancelLabel={_('adminSettings.accounts.keep')}
          busy={busy}
          onConfirm={() => void endAll(pending)}
          onCancel={() => setPending(null)}
        />
      )}
    </SettingsSection>
  );
}
