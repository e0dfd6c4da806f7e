import { useLingui } from '@lingui/react';
import { useId, useState, type FormEvent } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { GiftRedeemed } from '../../../../shared/gift-codes.js';
import { billingApi } from '../../api/billing-endpoints';
import { isApiError } from '../../api';
import { BUTTON } from '../accounts/button-styles';
import { Modal } from '../accounts/Modal';
import { CODE_FIELD_CLASS, CodeInput } from './CodeInput';

interface RedeemGiftDialogProps {
  /** The customer's accounts a gift's days can go to (one on the gift's plan; the server decides). */
  accounts: readonly VpnAccount[];
  onRedeemed: (redeemed: GiftRedeemed) => void;
  onClose: () => void;
}

/** "Redeem a gift code": the code, and whether it makes a new account or adds its days to one of the customer's. */
export function RedeemGiftDialog({ accounts, onRedeemed, onClose }: RedeemGiftDialogProps) {
  const { _ } = useLingui();
  const id = useId();
  const [code, setCode] = useState('');
  const [target, setTarget] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const extendable = accounts.filter((account) => account.status !== 'suspended');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !code.trim()) return;
    setBusy(true);
    setError(null);
    try {
      onRedeemed(await billingApi.redeemGift({ code: code.trim(), ...(target ? { accountId: target } : {}) }));
    } catch (caught) {
      setError(isApiError(caught) && caught.status >= 400 && caught.status < 500 && caught.message ? caught.message : _('account.gift.failed'));
      setBusy(false);
    }
  }

  return (
    <Modal title={_('account.gift.title')} titleId={`${id}-title`} onClose={() => !busy && onClose()}>
      <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
        <p className="text-sm leading-6 text-slate-600">{_('account.gift.intro')}</p>
        <div className="space-y-1.5">
          <label htmlFor={`${id}-code`} className="block text-sm font-medium text-slate-700">
            {_('account.gift.code')}
          </label>
          <CodeInput
            id={`${id}-code`}
            value={code}
            onValueChange={setCode}
            placeholder="XXXX-XXXX-XXXX-XXXX"
            data-autofocus
            errorId={error ? `${id}-error` : undefined}
            className="font-mono"
          />
        </div>
        {extendable.length > 0 && (
          <div className="space-y-1.5">
            <label htmlFor={`${id}-target`} className="block text-sm font-medium text-slate-700">
              {_('account.gift.target')}
            </label>
            <select id={`${id}-target`} value={target} onChange={(event) => setTarget(event.target.value)} className={CODE_FIELD_CLASS}>
              <option value="">{_('account.gift.newAccount')}</option>
              {extendable.map((account) => (
                <option key={account.id} value={account.id}>
                  {_('account.gift.addTo', { account: account.username })}
                </option>
              ))}
            </select>
          </div>
        )}
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={onClose} disabled={busy} className={BUTTON.secondary}>
            {_('pricing.payment.cancel')}
          </button>
          <button type="submit" disabled={busy || !code.trim()} aria-busy={busy || undefined} className={BUTTON.primary}>
            {busy ? _('account.gift.redeeming') : _('account.gift.redeem')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
