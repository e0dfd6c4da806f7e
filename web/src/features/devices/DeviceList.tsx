import { Trans, useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import type { AccountDevice } from '../../../../shared/devices.js';
import { useFormat } from '../../i18n/format';
import { BUTTON } from '../accounts/button-styles';
import { deviceSystem } from './device-text';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 font-medium break-words text-slate-800">{children}</dd>
    </>
  );
}

interface DeviceListProps {
  /** Oldest first, as the server sends them. */
  devices: readonly AccountDevice[];
  /** How a device is named: its heading, and what its Remove button says to a screen reader. */
  nameOf: (device: AccountDevice) => string;
  onRemove: (device: AccountDevice) => void;
}

/** Each device with what its app reported (system, model, app), when it was first and last seen, and Remove. */
export function DeviceList({ devices, nameOf, onRemove }: DeviceListProps) {
  const { _ } = useLingui();
  const format = useFormat();
  return (
    <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
      {devices.map((device) => {
        const name = nameOf(device);
        return (
          <li key={device.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0">
              <p className="font-semibold break-words text-slate-900">
                {device.anonymous ? name : (device.model ?? deviceSystem(device) ?? device.app ?? name)}
              </p>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <Detail label={_('account.devices.system')}>{deviceSystem(device) ?? '—'}</Detail>
                <Detail label={_('account.devices.model')}>{device.model ?? '—'}</Detail>
                <Detail label={_('account.devices.app')}>{device.app ?? '—'}</Detail>
                <Detail label={_('account.devices.firstSeen')}>{format.dateTime(device.firstSeenAt)}</Detail>
                <Detail label={_('account.devices.lastSeen')}>{format.dateTime(device.lastSeenAt)}</Detail>
              </dl>
            </div>
            <button type="button" onClick={() => onRemove(device)} className={`${BUTTON.smallDanger} shrink-0 self-start`}>
              <Trans id="account.devices.remove" values={{ device: name }} components={{ 0: <span className="sr-only" /> }} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}
