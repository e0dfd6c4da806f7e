import { useLingui } from '@lingui/react';
import { useId, useState, type FormEvent } from 'react';
import type { VpnAccount } from '../../../../../shared/accounts.js';
import type { ExtendAccountBody } from '../../../../../shared/users.js';
import { messageOrFallback } from '../../accounts/error-message';
import { inputClass } from '../admin-ui';
import { Dialog } from '../Dialog';
import { DialogFormFooter } from '../DialogFormFooter';

/** Days to add to an account (from its expiry, or from now if it has passed) and/or a new data limit. */
export function ExtendAccountDialog({
  account,
  onExtend,
  onClose,
}: {
  account: VpnAccount;
  onExtend: (body: ExtendAccountBody) => Promise<void>;
  onClose: () => void;
}) {
  const { _ } = useLingui();
  const id = useId();
  const [days, setDays] = useState('30');
  const [limitGb, setLimitGb] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const body: ExtendAccountBody = {};
    if (days.trim()) body.days = Number(days);
    const typed = limitGb.trim().toLowerCase();
    // 'unlimited' works in every language, beside the word this one uses.
    if (typed) body.dataLimitGb = typed === 'unlimited' || typed === _('admin.extend.unlimitedKeyword').toLowerCase() ? null : Number(limitGb);
    if (body.days === undefined && body.dataLimitGb === undefined) {
      setError(_('admin.extend.nothingGiven'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onExtend(body);
    } catch (caught) {
      setError(messageOrFallback(caught, _('admin.user.extendFailed')));
      setBusy(false);
    }
  }

  return (
    <Dialog title={_('admin.accounts.extendLabel', { username: account.username })} onClose={onClose} size="sm">
      <form onSubmit={(event) => void submit(event)} className="space-y-4 text-sm">
        <label className="block" htmlFor={`${id}-days`}>
          <span className="font-medium text-slate-700">{_('admin.extend.days')}</span>
          <input id={`${id}-days`} inputMode="numeric" value={days} onChange={(event) => setDays(event.target.value)} className={inputClass} />
        </label>
        <label className="block" htmlFor={`${id}-limit`}>
          <span className="font-medium text-slate-700">{_('admin.extend.limit', { keyword: _('admin.extend.unlimitedKeyword') })}</span>
          <input id={`${id}-limit`} value={limitGb} onChange={(event) => setLimitGb(event.target.value)} className={inputClass} />
        </label>
        <DialogFormFooter error={error} busy={busy} submitLabel={_('admin.accounts.extend')} busyLabel={_('admin.extend.extending')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
