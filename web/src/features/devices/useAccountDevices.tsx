import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { DeviceSource, DevicesState } from './device-source';
import { DevicesDialog } from './DevicesDialog';

/** Only an account with a subscription link can have devices: they are the apps that fetched it. */
export const canHaveDevices = (account: Pick<VpnAccount, 'combinedUrl'>): boolean => Boolean(account.combinedUrl);

export interface AccountDevicesControls {
  /** The account's devices for its row's button; undefined for an account that cannot have any. */
  stateOf(account: VpnAccount): DevicesState | undefined;
  /** Opens the account's devices dialog. */
  open(account: VpnAccount): void;
  /** The open dialog (render it once, outside the table). */
  dialog: ReactNode;
}

/**
 * The devices of every account in a list, loaded again whenever the list is (a new array), and the
 * dialog that lists one account's devices and removes them. `source` must be the same object on every render.
 */
export function useAccountDevices(accounts: readonly VpnAccount[], source: DeviceSource): AccountDevicesControls {
  const [states, setStates] = useState<ReadonlyMap<string, DevicesState>>(() => new Map());
  const [openId, setOpenId] = useState<string | null>(null);

  const load = useCallback(
    async (accountId: string, signal?: AbortSignal) => {
      const update = (change: (state: DevicesState) => DevicesState) =>
        setStates((current) => new Map(current).set(accountId, change(current.get(accountId) ?? { devices: null, failed: false })));
      try {
        const devices = await source.list(accountId, signal);
        if (!signal?.aborted) update(() => ({ devices, failed: false }));
      } catch {
        if (!signal?.aborted) update((state) => ({ ...state, failed: true }));
      }
    },
    [source],
  );

  useEffect(() => {
    const controller = new AbortController();
    for (const account of accounts) if (canHaveDevices(account)) void load(account.id, controller.signal);
    return () => controller.abort();
  }, [accounts, load]);

  const openAccount = openId ? accounts.find((account) => account.id === openId) : undefined;
  const dialog = openAccount ? (
    <DevicesDialog
      account={openAccount}
      state={states.get(openAccount.id) ?? { devices: null, failed: false }}
      source={source}
      onReload={() => load(openAccount.id)}
      onClose={() => setOpenId(null)}
    />
  ) : null;

  return {
    stateOf: (account) => (canHaveDevices(account) ? (states.get(account.id) ?? { devices: null, failed: false }) : undefined),
    open: (account) => {
      setOpenId(account.id);
      // Opening shows the list as it is now, not as it was when the page loaded.
      void load(account.id);
    },
    dialog,
  };
}
