import { useLingui } from '@lingui/react';
import { useId, useState } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { AccountDevice } from '../../../../shared/devices.js';
import { Loading } from '../../components/Loading';
import { useFormat } from '../../i18n/format';
import { BUTTON } from '../accounts/button-styles';
import { ConfirmDialog } from '../accounts/ConfirmDialog';
import { messageOrFallback } from '../accounts/error-message';
import { Modal } from '../accounts/Modal';
import { useToast } from '../toast/toast-context';
import type { DeviceSource, DevicesState } from './device-source';
import { APPS_SENDING_DEVICE_ID, appName, deviceLabel, devicesUsageText, isAtLimit } from './device-text';
import { DeviceList } from './DeviceList';

interface DevicesDialogProps {
  account: VpnAccount;
  state: DevicesState;
  source: DeviceSource;
  /** Loads the account's devices again (after a removal, or Try again). */
  onReload: () => Promise<void>;
  onClose: () => void;
}

/**
 * One account's devices: how many of how many are in use, each device with Remove (asked first,
 * then removed, the list reloaded and a toast either way), or why the list is empty.
 */
export function DevicesDialog({ account, state, source, onReload, onClose }: DevicesDialogProps) {
  const { _ } = useLingui();
  const format = useFormat();
  const toast = useToast();
  const titleId = useId();
  const [removing, setRemoving] = useState<AccountDevice | null>(null);
  const { devices, failed } = state;
  // An app without a device id, counted by its app and address: 'Unknown device (v2rayNG)'.
  const nameOf = (device: AccountDevice) =>
    device.anonymous ? _('account.devices.unknownApp', { app: appName(device.app) ?? '?' }) : (deviceLabel(device) ?? _('account.devices.unknown'));

  async function remove(device: AccountDevice) {
    try {
      await source.remove(account.id, device.id);
      toast.success(_('account.devices.removed'));
    } catch (caught) {
      toast.error(messageOrFallback(caught, _('account.devices.removeFailed')));
    }
    await onReload();
  }

  return (
    <>
      <Modal title={_('account.devices.title', { who: account.username })} titleId={titleId} onClose={onClose} size="large">
        {failed && (
          <div
            role="alert"
            className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
          >
            <span>{_('account.devices.loadFailed')}</span>
            <button type="button" onClick={() => void onReload()} className="font-semibold underline">
              {_('account.dashboard.tryAgain')}
            </button>
          </div>
        )}
        {!devices && !failed && <Loading className="py-8" />}
        {devices && (
          <div className="space-y-4">
            <p className="text-sm text-slate-600">{devicesUsageText(_, format, devices)}</p>
            {isAtLimit(devices) && (
              <p className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">{_('account.devices.full')}</p>
            )}
            {devices.devices.length === 0 ? (
              <p className="rounded-lg bg-slate-50 p-4 text-sm leading-6 text-slate-600 ring-1 ring-slate-200">
                {_('account.devices.empty', { apps: format.list(APPS_SENDING_DEVICE_ID) })}
              </p>
            ) : (
              <DeviceList devices={devices.devices} nameOf={nameOf} onRemove={setRemoving} />
            )}
          </div>
        )}
        <div className="mt-6 flex justify-end">
          <button type="button" onClick={onClose} className={BUTTON.secondary}>
            {_('account.modal.close')}
          </button>
        </div>
      </Modal>
      {removing && (
        <ConfirmDialog
          title={_('account.devices.removeTitle')}
          message={_('account.devices.removeConfirm', { device: nameOf(removing) })}
          confirmLabel={_('account.devices.removeAction')}
          busyLabel={_('account.devices.removing')}
          onConfirm={() => remove(removing)}
          onClose={() => setRemoving(null)}
        />
      )}
    </>
  );
}
