import { useLingui } from '@lingui/react';
import { useFormat } from '../../i18n/format';
import type { DevicesState } from './device-source';
import { devicesCountText } from './device-text';

interface DevicesButtonProps {
  state: DevicesState;
  /** The account's name, which the button says to a screen reader ('Devices user_1a2b 2 of 3'). */
  who: string;
  onOpen: () => void;
  className: string;
}

/** 'Devices' with how many are in use ('2 of 3', or '2' without a limit) once known; opens the account's list. */
export function DevicesButton({ state, who, onOpen, className }: DevicesButtonProps) {
  const { _ } = useLingui();
  const format = useFormat();
  return (
    <button type="button" onClick={onOpen} className={className}>
      {_('account.devices.button')}
      <span className="sr-only"> {who}</span>{' '}
      {state.devices && <span className="rounded-full bg-slate-100 px-1.5 text-slate-700 tabular-nums">{devicesCountText(_, format, state.devices)}</span>}
    </button>
  );
}
