import { useLingui } from '@lingui/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { setPasskeyChallengeHandler, type PasskeyChallengeCode } from '../../api/passkey-challenge';
import { passkeyApi } from '../../api/passkey-endpoints';
import { getErrorMessage } from '../../api';
import { ERR } from '../../../../shared/errors.js';
import { BUTTON } from '../accounts/button-styles';
import { Modal } from '../accounts/Modal';
import { addPasskey, provePasskey, wasCancelled } from './passkey-ceremony';
import { RecoveryCodes } from './RecoveryCodes';

interface Pending {
  code: PasskeyChallengeCode;
  settle: (proved: boolean) => void;
}

/**
 * The screen the server's passkey answers open, over whatever page asked: "Confirm it's you with your passkey" (after
 * the e-mailed code, and before a large refund or a key change), with a recovery code instead; or "Add a passkey"
 * when the owner requires one. The request that was refused is sent again once this succeeds (api/passkey-challenge.ts).
 */
export function PasskeyChallengeHost() {
  const [pending, setPending] = useState<Pending | null>(null);
  const shared = useRef<Promise<boolean> | null>(null);

  useEffect(
    () =>
      setPasskeyChallengeHandler((code) => {
        // Several requests refused at once share one screen.
        shared.current ??= new Promise<boolean>((resolve) => {
          setPending({
            code,
            settle: (proved) => {
              shared.current = null;
              setPending(null);
              resolve(proved);
            },
          });
        });
        return shared.current;
      }),
    [],
  );

  if (!pending) return null;
  return pending.code === ERR.passkey_setup_required ? <AddPasskeyScreen onDone={pending.settle} /> : <ConfirmScreen pending={pending} />;
}

function ConfirmScreen({ pending }: { pending: Pending }) {
  const { _ } = useLingui();
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');

  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      pending.settle(true);
    } catch (caught) {
      if (!wasCancelled(caught)) setError(getErrorMessage(caught, _('account.passkeys.failed')));
    } finally {
      setBusy(false);
    }
  }
  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    void run(() => passkeyApi.useRecoveryCode(code));
  };

  return (
    <Modal title={_('account.passkeys.confirmTitle')} titleId={titleId} onClose={() => pending.settle(false)}>
      <p className="text-sm text-slate-600">{pending.code === ERR.step_up_required ? _('account.passkeys.stepUpText') : _('account.passkeys.confirmText')}</p>
      {error && (
        <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {error}
        </p>
      )}
      {recovery ? (
        <form className="mt-4 space-y-3" onSubmit={submitCode}>
          <label className="block text-sm font-medium text-slate-700">
            {_('account.passkeys.recoveryCode')}
            <input
              data-autofocus
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="one-time-code"
              dir="ltr"
              className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 font-mono"
            />
          </label>
          <button type="submit" className={BUTTON.primary} disabled={busy || code.trim() === ''}>
            {_('account.passkeys.useCode')}
          </button>
        </form>
      ) : (
        <div className="mt-6 flex flex-wrap items-center gap-3">
          <button type="button" data-autofocus className={BUTTON.primary} disabled={busy} onClick={() => void run(provePasskey)}>
            {_('account.passkeys.usePasskey')}
          </button>
          <button type="button" className="text-sm font-semibold text-indigo-700 underline" onClick={() => setRecovery(true)}>
            {_('account.passkeys.useRecoveryCode')}
          </button>
        </div>
      )}
    </Modal>
  );
}

function AddPasskeyScreen({ onDone }: { onDone: (proved: boolean) => void }) {
  const { _ } = useLingui();
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  async function add() {
    setBusy(true);
    setError(null);
    try {
      const added = await addPasskey();
      if (added.recoveryCodes) setCodes(added.recoveryCodes);
      else onDone(true);
    } catch (caught) {
      if (!wasCancelled(caught)) setError(getErrorMessage(caught, _('account.passkeys.failed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal title={_('account.passkeys.setupTitle')} titleId={titleId} onClose={() => onDone(codes !== null)}>
      {codes ? (
        <>
          <RecoveryCodes codes={codes} />
          <div className="mt-6 flex justify-end">
            <button type="button" className={BUTTON.primary} onClick={() => onDone(true)}>
              {_('account.passkeys.continue')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-600">{_('account.passkeys.setupText')}</p>
          {error && (
            <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
              {error}
            </p>
          )}
          <div className="mt-6">
            <button type="button" data-autofocus className={BUTTON.primary} disabled={busy} onClick={() => void add()}>
              {_('account.passkeys.add')}
            </button>
          </div>
        </>
      )}
    </Modal>
  );
}
