import { useLingui } from '@lingui/react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { AuditLogEntry } from '../../../../../shared/audit.js';
import { adminApi } from '../../../api/admin-endpoints';
import { Loading } from '../../../components/Loading';
import { useFormat } from '../../../i18n/format';
import { AdminTable, Cell } from '../AdminTable';
import { buttonClass, inputClass } from '../admin-ui';
import { AlertBox } from '../AlertBox';
import { AuditEntryDetails } from './AuditEntryDetails';
import { ACTION_PREFIXES, auditActionLabelId } from './audit-labels';

/** The filters, as the URL's query and the routes' query: the same names. */
const FILTERS = ['actor', 'action', 'customer', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];
const COLUMNS = ['admin.column.when', 'admin.column.action', 'admin.column.by', 'admin.audit.column.target', 'admin.column.details'] as const;

/** What an entry acted on: its type and id (a customer's own events: "user" and their id). */
const targetText = (entry: AuditLogEntry) => (entry.targetType ? `${entry.targetType} ${entry.targetId ?? ''}`.trim() : (entry.userId ?? '—'));

function filterQuery(params: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const name of FILTERS) {
    const value = params.get(name)?.trim();
    if (value) query.set(name, value);
  }
  return query.toString();
}

/**
 * The Audit section: every staff action with what it changed, and every customer's security events, newest first,
 * filtered by who, what (an action prefix), which customer and when — the filters live in the URL, so a filtered view
 * can be shared — with "Load more" and the same filters as a CSV download.
 */
export function AuditTab({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const id = useId();
  const format = useFormat();
  const [params, setParams] = useSearchParams();
  const query = filterQuery(params);
  const [entries, setEntries] = useState<AuditLogEntry[] | null>(null);
  const [nextCursor, setNextCursor] = useState<number | null>(null);
  const [state, setState] = useState<'loading' | 'loaded' | 'failed'>('loading');

  useEffect(() => {
    const controller = new AbortController();
    setState('loading');
    adminApi.audit
      .list(query, controller.signal)
      .then((page) => {
        setEntries(page.entries);
        setNextCursor(page.nextCursor);
        setState('loaded');
      })
      .catch(() => {
        if (!controller.signal.aborted) setState('failed');
      });
    return () => controller.abort();
  }, [query, refreshKey]);

  async function loadMore() {
    if (nextCursor === null) return;
    setState('loading');
    try {
      const page = await adminApi.audit.list(`${query ? `${query}&` : ''}before=${nextCursor}`);
      setEntries((shown) => [...(shown ?? []), ...page.entries]);
      setNextCursor(page.nextCursor);
      setState('loaded');
    } catch {
      setState('failed');
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const name of FILTERS) {
      const entered = form.get(name);
      const value = typeof entered === 'string' ? entered.trim() : '';
      if (value) next.set(name, value);
    }
    setParams(next);
  }

  const field = (name: Filter, labelId: string, type = 'text', list?: string) => (
    <div key={`${name}:${params.get(name) ?? ''}`}>
      <label htmlFor={`${id}-${name}`} className="block text-sm font-medium text-slate-700">
        {_(labelId)}
      </label>
      <input id={`${id}-${name}`} name={name} type={type} list={list} defaultValue={params.get(name) ?? ''} className={inputClass} />
    </div>
  );

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">{_('admin.audit.intro')}</p>
      <form
        onSubmit={onSubmit}
        role="search"
        aria-label={_('admin.audit.filters')}
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-6 lg:items-end"
      >
        {field('actor', 'admin.audit.filter.actor', 'email')}
        {field('action', 'admin.audit.filter.action', 'text', `${id}-prefixes`)}
        <datalist id={`${id}-prefixes`}>
          {ACTION_PREFIXES.map((prefix) => (
            <option key={prefix} value={prefix} />
          ))}
        </datalist>
        {field('customer', 'admin.audit.filter.customer')}
        {field('from', 'admin.audit.filter.from', 'date')}
        {field('to', 'admin.audit.filter.to', 'date')}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonClass.primary}>
            {_('admin.audit.apply')}
          </button>
          <a href={adminApi.audit.exportUrl(query)} download className={buttonClass.secondary}>
            {_('admin.audit.export')}
          </a>
        </div>
      </form>
      {state === 'failed' && <AlertBox>{_('admin.audit.loadFailed')}</AlertBox>}
      {!entries && state === 'loading' ? (
        <Loading />
      ) : (
        <AdminTable
          caption={_('admin.tab.audit')}
          columns={COLUMNS.map((column) => _(column))}
          busy={state === 'loading'}
          isEmpty={entries?.length === 0}
          emptyText={_('admin.audit.empty')}
        >
          {entries?.map((entry) => {
            const labelId = auditActionLabelId(entry.action);
            return (
              <tr key={entry.id} className="align-top">
                <Cell className="whitespace-nowrap text-slate-700">
                  <time dateTime={entry.createdAt}>{format.dateTime(entry.createdAt)}</time>
                </Cell>
                <Cell className="font-medium text-slate-900">
                  <span title={entry.action}>{labelId ? _(labelId) : entry.action}</span>
                </Cell>
                <Cell className="wrap-anywhere">{entry.actorEmail ?? _('admin.user.system')}</Cell>
                <Cell className="text-xs wrap-anywhere">
                  {entry.userId ? (
                    <Link to={`/admin/users/${encodeURIComponent(entry.userId)}`} className="text-indigo-700 hover:underline">
                      {targetText(entry)}
                    </Link>
                  ) : (
                    targetText(entry)
                  )}
                </Cell>
                <Cell className="min-w-64">
                  <AuditEntryDetails details={entry.details} ip={entry.ip} />
                </Cell>
              </tr>
            );
          })}
        </AdminTable>
      )}
      {nextCursor !== null && (
        <button type="button" onClick={() => void loadMore()} disabled={state === 'loading'} className={buttonClass.secondary}>
          {_('admin.audit.loadMore')}
        </button>
      )}
    </div>
  );
}
