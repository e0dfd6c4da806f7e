import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { StatusBadge } from '../accounts/StatusBadge';
import { useFormat } from '../../i18n/format';
import { useRegionName } from '../accounts/region-name';

/** The account details box at the top of the setup dialog. */
export function AccountDetails({ account }: { account: VpnAccount }) {
  const { _ } = useLingui();
  const format = useFormat();
  const regionName = useRegionName();
  const rows: Array<[string, ReactNode]> = [
    [_('account.details.username'), <bdi className="font-mono break-all">{account.username}</bdi>],
    [_('account.details.status'), <StatusBadge status={account.status} paymentConfirmed={account.paymentConfirmed} />],
    [_('account.details.expires'), format.expiry(account.expireDate)],
    [_('account.details.dataLimit'), format.dataLimit(account.dataLimitBytes)],
    [_('account.details.server'), account.server ? <bdi>{regionName(account.server)}</bdi> : '—'],
    [_('account.details.locations'), account.server ? format.locations(account.server.locations) : '—'],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 rounded-xl bg-indigo-50 p-4 text-sm ring-1 ring-indigo-100 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label} className="flex items-baseline justify-between gap-3 sm:block">
          <dt className="text-indigo-900/70">{label}</dt>
          <dd className="text-end font-medium text-slate-900 sm:mt-0.5 sm:text-start">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
