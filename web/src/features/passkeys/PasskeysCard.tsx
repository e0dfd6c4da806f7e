import { useLingui } from '@lingui/react';
import { useCallback, useEffect, useId, useState } from 'react';
import type { MyPasskeys, Passkey } from '../../../../shared/passkeys.js';
import { passkeyApi } from '../../api/passkey-endpoints';
import { useFormat } from '../../i18n/format';
import { BUTTON } from '../accounts/button-styles';
import { ConfirmDialog } from '../accounts/ConfirmDialog';
import { messageOrFallback } from '../accounts/error-message';
import { Modal } from '../accounts/Modal';
import { useToast } from '../toast/toast-context';
import { addPasskey, wasCancelled } from './passkey-ceremony';
import { RecoveryCodes } from './RecoveryCodes';

/**
 * The signed-in person's passkeys (Security): listed, added with the browser's passkey prompt (the first one's
 * recovery codes shown once), deleted. Staff sign in with the code and a passkey once they have one; for customers
 * a passkey is optional.
 */
export function PasskeysCard() {
  const { _ } = useLingui();
  const toast = useToast();
  const [state, setState] = useState<MyPasskeys | null>(null);
  const [busy, setBusy] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const codesTitleId = useId();

  const reload = useCallback(async () => {
    try {
      setState(await passkeyApi.list());
    } catch (error) {
      toast.error(messageOrFallback(error, _('account.passkeys.loadFailed')));
    }
  }, [toast, _]);
  useEffect(() => {
    void reload();
  }, [reload]);

  async function add() {
    setBusy(true);
    try {
      const added = await addPasskey(_('account.passkeys.defaultName'));
      if (added.recoveryCodes) setCodes(added.recoveryCodes);
      toast.success(_('account.passkeys.added'));
    } catch (error) {
      if (!wasCancelled(error)) toast.error(messageOrFallback(error, _('account.passkeys.failed')));
    } finally {
      setBusy(false);
      await reload();
    }
  }

  async function remove(passkey: Passkey) {
    try {
      await passkeyApi.remove(passkey.id);
      toast.success(_('account.passkeys.deleted'));
    } catch (error) {
      toast.error(messageOrFallback(error, _('account.passkeys.failed')));
    }
    await reload();
  }

  return (
    <section aria-labelledby="passkeys-title" className="mt-16 border-t border-slate-200 pt-8" data-testid="passkeys">
      <h2 id="passkeys-title" className="text-xl font-semibold text-slate-900">
        {_('account.passkeys.title')}
      </h2>
      <p className="mt-2 text-slate-600">{state?.required ? _('account.passkeys.leadRequired') : _('account.passkeys.lead')}</p>
      {state && state.passkeys.length > 0 && <PasskeyList passkeys={state.passkeys} onDelete={setDeleting} recoveryCodesLeft={state.recoveryCodesLeft} />}
      <div className="mt-4">
        <button type="button" onClick={() => void add()} disabled={busy || !state} className={BUTTON.primary}>
          {_('account.passkeys.add')}
        </button>
      </div>
      {codes && (
        <Modal title={_('account.passkeys.recoveryTitle')} titleId={codesTitleId} onClose={() => setCodes(null)}>
          <RecoveryCodes codes={codes} />
          <div className="mt-6 flex justify-end">
            <button type="button" className={BUTTON.primary} onClick={() => setCodes(null)}>
              {_('account.passkeys.savedCodes')}
            </button>
          </div>
        </Modal>
      )}
      {deleting && (
        <ConfirmDialog
          title={_('account.passkeys.deleteTitle')}
          message={_('account.passkeys.deleteMessage', { name: deleting.name })}
          confirmLabel={_('account.passkeys.delete')}
          busyLabel={_('account.passkeys.deleting')}
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        />
      )}
    </section>
  );
}

function PasskeyList({ passkeys, recoveryCodesLeft, onDelete }: { passkeys: Passkey[]; recoveryCodesLeft: number; onDelete: (passkey: Passkey) => void }) {
  const { _ } = useLingui();
  const format = useFormat();
  return (
    <>
      <ul className="mt-4 divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
        {passkeys.map((passkey) => (
          <li key={passkey.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
            <div className="min-w-0">
              <p className="font-semibold break-words text-slate-900">{passkey.name}</p>
              <p className="text-sm text-slate-500">
                {_('account.passkeys.addedOn', { date: format.date(passkey.createdAt) })}
                {passkey.lastUsedAt && `${format.separator}${_('account.passkeys.lastUsed', { date: format.date(passkey.lastUsedAt) })}`}
              </p>
            </div>
            <button
              type="button"
              className={BUTTON.smallDanger}
              onClick={() => onDelete(passkey)}
              aria-label={_('account.passkeys.deleteNamed', { name: passkey.name })}
            >
              {_('account.passkeys.delete')}
            </button>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-slate-500">{_('account.passkeys.codesLeft', { count: recoveryCodesLeft })}</p>
    </>
  );
}
