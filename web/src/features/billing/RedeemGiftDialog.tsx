import { useLingui } from '@lingui/react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { GIFT_CODE_LENGTH, giftCodeKey, type GiftRedeemed } from '../../../../shared/gift-codes.js';
import { billingApi } from '../../api/billing-endpoints';
import { isApiError } from '../../api';
import { BUTTON } from '../accounts/button-styles';
import { Modal } from '../accounts/Modal';
import { CODE_FIELD_CLASS, CodeInput } from './CodeInput';

interface RedeemGiftDialogProps {
  /** The customer's accounts; a gift's days can go to those on its plan (the server says which, and checks again). */
  accounts: readonly VpnAccount[];
  onRedeemed: (redeemed: GiftRedeemed) => void;
  onClose: () => void;
}

/**
 * The accounts a whole code can add its days to, as the server says (on the code's plan, not renewing by
 * themselves): none until the code is complete, and none for a code it does not know (the redemption says why).
 */
function useExtendableAccounts(code: string, accounts: readonly VpnAccount[]): VpnAccount[] {
  const key = giftCodeKey(code);
  const [checked, setChecked] = useState<{ key: string; accountIds: readonly string[] } | null>(null);
  useEffect(() => {
    if (key.length !== GIFT_CODE_LENGTH || accounts.length === 0) return;
    let current = true;
    billingApi.checkGift({ code: key }).then(
      (answer) => current && setChecked({ key, accountIds: answer.accountIds }),
      () => current && setChecked({ key, accountIds: [] }),
    );
    return () => {
      current = false;
    };
  }, [key, accounts.length]);
  const ids = checked?.key === key ? checked.accountIds : [];
  return accounts.filter((account) => ids.includes(account.id));
}

/** "Redeem a gift code": the code, and whether it makes a new account or adds its days to one of the customer's. */
export function RedeemGiftDialog({ accounts, onRedeemed, onClose }: RedeemGiftDialogProps) {
  const { _ } = useLingui();
  const id = useId();
  const [code, setCode] = useState('');
  const [target, setTarget] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const extendable = useExtendableAccounts(code, accounts);
  // An account picked for another code's plan is not offered for this one.
  const chosen = extendable.some((account) => account.id === target) ? target : '';

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || !code.trim()) return;
    setBusy(true);
    setError(null);
    try {
      onRedeemed(await billingApi.redeemGift({ code: code.trim(), ...(chosen ? { accountId: chosen } : {}) }));
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
            <select id={`${id}-target`} value={chosen} onChange={(event) => setTarget(event.target.value)} className={CODE_FIELD_CLASS}>
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
