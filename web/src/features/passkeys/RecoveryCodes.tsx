import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { BUTTON } from '../accounts/button-styles';

/** The recovery codes, shown this once, with Copy. */
export function RecoveryCodes({ codes }: { codes: readonly string[] }) {
  const { _ } = useLingui();
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(codes.join('\n')).catch(() => undefined);
    setCopied(true);
  }
  return (
    <div className="space-y-3" data-testid="recovery-codes">
      <p className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">{_('account.passkeys.recoveryCodesOnce')}</p>
      <ul className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm text-slate-900 ring-1 ring-slate-200" dir="ltr">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <button type="button" className={BUTTON.secondary} onClick={() => void copy()}>
        {copied ? _('account.passkeys.copied') : _('account.passkeys.copyCodes')}
      </button>
    </div>
  );
}
