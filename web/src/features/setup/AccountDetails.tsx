import type { ReactNode } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { StatusBadge } from '../accounts/StatusBadge';
import { formatDataLimit, formatExpiry, formatLocations } from '../accounts/format';

/** The account details box at the top of the setup dialog. */
export function AccountDetails({ account }: { account: VpnAccount }) {
  const rows: Array<[string, ReactNode]> = [
    ['Username', <span className="font-mono break-all">{account.username}</span>],
    ['Status', <StatusBadge status={account.status} paymentConfirmed={account.paymentConfirmed} />],
    ['Expires', formatExpiry(account.expireDate)],
    ['Data limit', formatDataLimit(account.dataLimitBytes)],
    ['Server', account.server?.name ?? '—'],
    ['Locations', account.server ? formatLocations(account.server.locations) : '—'],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 rounded-xl bg-indigo-50 p-4 text-sm ring-1 ring-indigo-100 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label} className="flex items-baseline justify-between gap-3 sm:block">
          <dt className="text-indigo-900/70">{label}</dt>
          <dd className="text-right font-medium text-slate-900 sm:mt-0.5 sm:text-left">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
