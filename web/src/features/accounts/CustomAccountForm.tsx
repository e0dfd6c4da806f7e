import { useLingui } from '@lingui/react';
import { useFormat } from '../../i18n/format';
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { AdminServer } from '../../../../shared/servers.js';
import { adminApi } from '../../api/admin-endpoints';
import type { CustomAccountInput } from '../../api/account-endpoints';
import { BUTTON } from './button-styles';

/** Spec section 9: the custom form starts at 50 GB for 30 days. */
const CUSTOM_ACCOUNT_DEFAULTS = { dataLimitGb: 50, expireDays: 30 } as const;

interface CustomAccountFormProps {
  servers: readonly AdminServer[];
  busy: boolean;
  /** `customerEmail`: whose account it is ('' = the admin's own); the page finds the customer. */
  onSubmit: (input: Omit<CustomAccountInput, 'userId'> & { customerEmail: string }) => void;
}

/** Addresses starting with what was typed, to pick the customer from (the admin's users search). */
function useCustomerSuggestions(typed: string): string[] {
  const [suggestions, setSuggestions] = useState<string[]>([]);
  useEffect(() => {
    const prefix = typed.trim().toLowerCase();
    if (prefix.length < 2) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      adminApi.users.list({ q: prefix, limit: 8 }, controller.signal).then(
        (users) => setSuggestions(users.flatMap((user) => (user.email ? [user.email] : []))),
        () => undefined,
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [typed]);
  return typed.trim().length < 2 ? [] : suggestions;
}

const FIELD =
  'mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2 shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none';

/** Server, data limit (whole GB, at least 1) and expiry (whole days, at least 1); the browser checks the rules. */
export function CustomAccountForm({ servers, busy, onSubmit }: CustomAccountFormProps) {
  const { _ } = useLingui();
  const format = useFormat();
  const id = useId();
  // The only server there is is the one to pick: chosen already.
  const [serverId, setServerId] = useState(() => (servers.length === 1 ? servers[0]!.id : ''));
  const [dataLimitGb, setDataLimitGb] = useState<string>(String(CUSTOM_ACCOUNT_DEFAULTS.dataLimitGb));
  const [expireDays, setExpireDays] = useState<string>(String(CUSTOM_ACCOUNT_DEFAULTS.expireDays));
  const [customerEmail, setCustomerEmail] = useState('');
  const suggestions = useCustomerSuggestions(customerEmail);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit({ serverId, dataLimitGb: Number(dataLimitGb), expireDays: Number(expireDays), customerEmail: customerEmail.trim() });
  }

  return (
    <form onSubmit={submit} className="space-y-5">
      <div>
        <label htmlFor={`${id}-customer`} className="block text-sm font-medium text-slate-700">
          {_('account.custom.customerEmail')}
        </label>
        <input
          id={`${id}-customer`}
          type="email"
          list={`${id}-customers`}
          autoComplete="off"
          placeholder={_('account.custom.customerPlaceholder')}
          value={customerEmail}
          onChange={(event) => setCustomerEmail(event.target.value)}
          className={FIELD}
        />
        <datalist id={`${id}-customers`}>
          {suggestions.map((email) => (
            <option key={email} value={email} />
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor={`${id}-server`} className="block text-sm font-medium text-slate-700">
          {_('account.custom.server')}
        </label>
        <select id={`${id}-server`} required value={serverId} onChange={(event) => setServerId(event.target.value)} className={FIELD}>
          <option value="">{_('account.custom.selectServer')}</option>
          {servers.map((server) => (
            <option key={server.id} value={server.id}>
              {server.name} ({format.locations(server.locations)})
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-data`} className="block text-sm font-medium text-slate-700">
            {_('account.custom.dataLimit')}
          </label>
          <input
            id={`${id}-data`}
            type="number"
            inputMode="numeric"
            required
            min={1}
            step={1}
            value={dataLimitGb}
            onChange={(event) => setDataLimitGb(event.target.value)}
            className={FIELD}
          />
        </div>
        <div>
          <label htmlFor={`${id}-days`} className="block text-sm font-medium text-slate-700">
            {_('account.custom.expireDays')}
          </label>
          <input
            id={`${id}-days`}
            type="number"
            inputMode="numeric"
            required
            min={1}
            step={1}
            value={expireDays}
            onChange={(event) => setExpireDays(event.target.value)}
            className={FIELD}
          />
        </div>
      </div>
      <button type="submit" disabled={busy} className={`${BUTTON.primary} w-full py-2.5 sm:w-auto`}>
        {_(busy ? 'account.custom.creating' : 'account.custom.create')}
      </button>
    </form>
  );
}
