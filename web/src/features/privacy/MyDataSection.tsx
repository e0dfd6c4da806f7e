import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { MyDataExport } from '../../../../shared/my-data.js';
import { apiClient } from '../../api';
import { BUTTON } from '../accounts/button-styles';
import { ConfirmDialog } from '../accounts/ConfirmDialog';
import { messageOrFallback } from '../accounts/error-message';
import { useAuth } from '../auth/auth-context';
import { useToast } from '../toast/toast-context';

/** Saves `data` as a file the browser (or the desktop app's window) downloads. */
function saveAsFile(data: MyDataExport): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `my-data-${data.exportedAt.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * "Your data" at the foot of the dashboard: everything held about the customer as a file (`GET /api/me/export`), and
 * the deletion of their account (`DELETE /api/me`), after a dialog that says what is lost and what is kept.
 */
export function MyDataSection() {
  const { _ } = useLingui();
  const toast = useToast();
  const navigate = useNavigate();
  const { setUser } = useAuth();
  const [downloading, setDownloading] = useState(false);
  const [confirming, setConfirming] = useState(false);

  async function download() {
    setDownloading(true);
    try {
      saveAsFile(await apiClient.request<MyDataExport>('GET', '/api/me/export'));
    } catch (error) {
      toast.error(messageOrFallback(error, _('account.myData.downloadFailed')));
    } finally {
      setDownloading(false);
    }
  }

  async function deleteAccount() {
    try {
      await apiClient.request<void>('DELETE', '/api/me');
    } catch (error) {
      // The server says why (auto-renew on, a payment open, a panel down): nothing was deleted.
      toast.error(messageOrFallback(error, _('account.myData.deleteFailed')));
      return;
    }
    // To the sign-in, as after signing out (the desktop app has no other page): the toast says what happened.
    setUser(null);
    await navigate('/login', { replace: true });
    toast.success(_('account.myData.deleted'));
  }

  return (
    <section aria-labelledby="my-data-title" className="mt-16 border-t border-slate-200 pt-8">
      <h2 id="my-data-title" className="text-xl font-semibold text-slate-900">
        {_('account.myData.title')}
      </h2>
      <p className="mt-2 text-slate-600">{_('account.myData.lead')}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <button type="button" onClick={() => void download()} disabled={downloading} className={BUTTON.secondary}>
          {downloading ? _('account.myData.downloading') : _('account.myData.download')}
        </button>
        <button type="button" onClick={() => setConfirming(true)} className={BUTTON.danger}>
          {_('account.myData.delete')}
        </button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={_('account.myData.deleteTitle')}
          message={_('account.myData.deleteMessage')}
          confirmLabel={_('account.myData.deleteConfirm')}
          busyLabel={_('account.myData.deleting')}
          onConfirm={deleteAccount}
          onClose={() => setConfirming(false)}
        />
      )}
    </section>
  );
}
