import { useLingui } from '@lingui/react';
import { useCallback, useEffect, useState, type ChangeEvent } from 'react';
import type { AdminPlan } from '../../../../shared/plans.js';
import type { ImportRowProblem, PanelUserRow } from '../../../../shared/panel-import.js';
import type { AdminServer } from '../../../../shared/servers.js';
import { isApiError } from '../../api';
import { adminApi } from '../../api/admin-endpoints';
import { useFormat } from '../../i18n/format';
import { useToast } from '../toast/toast-context';
import { AlertBox } from './AlertBox';
import { buttonClass, rowButtonClass } from './admin-ui';
import { errorMessage } from './admin-errors';
import { Dialog } from './Dialog';
import { SelectField } from './form-fields';
import { parseImportCsv, type ImportLink } from './panel-import-csv';

const PAGE_SIZE = 50;

interface ImportUsersDialogProps {
  server: AdminServer;
  onClose: () => void;
}

/**
 * Moving in: the panel's users that no account here holds, each linked to a customer by e-mail (one at a
 * time, or all rows of a `username,email` CSV at once). The panel is only read; a refused import names
 * each bad row and writes nothing.
 */
export function ImportUsersDialog({ server, onClose }: ImportUsersDialogProps) {
  const { _ } = useLingui();
  const toast = useToast();
  const format = useFormat();
  const [users, setUsers] = useState<PanelUserRow[]>([]);
  const [page, setPage] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [emails, setEmails] = useState<Record<string, string>>({});
  const [plans, setPlans] = useState<AdminPlan[]>([]);
  const [planId, setPlanId] = useState('');
  const [csv, setCsv] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; rows: ImportRowProblem[] } | null>(null);

  const loadPage = useCallback(
    async (next: number) => {
      setLoading(true);
      setLoadError(null);
      try {
        const result = await adminApi.servers.listPanelUsers(server.id, { page: next, size: PAGE_SIZE, unlinked: true });
        setUsers((current) => (next === 1 ? result.users : [...current, ...result.users]));
        setPage(next);
        setHasMore(result.hasMore);
      } catch (err) {
        setLoadError(errorMessage(err, _('admin.import.loadFailed')));
      } finally {
        setLoading(false);
      }
    },
    [server.id, _],
  );

  useEffect(() => {
    void loadPage(1);
    adminApi.plans.list().then(
      (list) => setPlans(list.filter((plan) => !plan.isTrial)),
      () => setPlans([]),
    );
  }, [loadPage]);

  async function importLinks(links: ImportLink[]): Promise<boolean> {
    setBusy(true);
    setFailure(null);
    try {
      const { imported } = await adminApi.servers.importUsers(server.id, { links, planId: planId || null });
      const names = new Set(imported.map((row) => row.username));
      setUsers((current) => current.filter((user) => !names.has(user.username)));
      toast.success(_('admin.import.done', { count: imported.length }));
      return true;
    } catch (err) {
      setFailure({ message: errorMessage(err, _('admin.import.failed')), rows: isApiError(err) ? (err.rows ?? []) : [] });
      return false;
    } finally {
      setBusy(false);
    }
  }

  /** The listed rows with an e-mail typed in, then the CSV's rows (a CSV row names its user again: it wins). */
  const typedLinks = (): ImportLink[] =>
    users.map((user) => ({ username: user.username, email: (emails[user.username] ?? '').trim() })).filter((link) => link.email !== '');

  async function importAll() {
    const fromCsv = parseImportCsv(csv);
    const inCsv = new Set(fromCsv.map((link) => link.username));
    const links = [...typedLinks().filter((link) => !inCsv.has(link.username)), ...fromCsv];
    if (links.length === 0) {
      setFailure({ message: _('admin.import.csvEmpty'), rows: [] });
      return;
    }
    if (await importLinks(links)) setCsv('');
  }

  async function readFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (file) setCsv(await file.text());
    event.target.value = '';
  }

  return (
    <Dialog title={_('admin.import.title', { name: server.name })} onClose={() => !busy && onClose()}>
      <div className="space-y-4">
        <p className="text-sm text-slate-600">{_('admin.import.intro')}</p>
        {failure && (
          <AlertBox reveal>
            <p>{failure.message}</p>
            {failure.rows.length > 0 && (
              <ul className="mt-2 list-disc space-y-1 ps-5">
                {failure.rows.map((row) => (
                  <li key={row.row}>
                    {_('admin.import.rowProblem', { row: row.row, username: row.username || '—', email: row.email || '—', message: row.message })}
                  </li>
                ))}
              </ul>
            )}
          </AlertBox>
        )}
        <SelectField label={_('admin.import.plan')} value={planId} onValueChange={setPlanId} hint={_('admin.import.planHint')} disabled={busy}>
          <option value="">{_('admin.import.noPlan')}</option>
          {plans.map((plan) => (
            <option key={plan.id} value={plan.id}>
              {plan.name}
            </option>
          ))}
        </SelectField>

        <section aria-labelledby="import-panel-users" className="space-y-2">
          <h3 id="import-panel-users" className="text-sm font-semibold text-slate-900">
            {_('admin.import.unlinkedTitle')}
          </h3>
          {loadError && <AlertBox>{loadError}</AlertBox>}
          {!loading && !loadError && users.length === 0 && <p className="text-sm text-slate-600">{_('admin.import.noneLeft')}</p>}
          <ul className="max-h-80 divide-y divide-slate-200 overflow-y-auto rounded-lg border border-slate-200">
            {users.map((user) => (
              <li key={user.username} className="flex flex-wrap items-center gap-2 p-2 text-sm">
                <div className="min-w-40 flex-1">
                  <p className="font-medium break-all text-slate-900">{user.username}</p>
                  <p className="text-xs text-slate-600">
                    {_('admin.import.userLine', {
                      status: user.status,
                      expires: format.expiry(user.expiresAt),
                      used: format.bytes(user.usedTrafficBytes),
                      limit: format.dataLimit(user.dataLimitBytes),
                    })}
                  </p>
                </div>
                <label className="sr-only" htmlFor={`import-email-${user.username}`}>
                  {_('admin.import.emailFor', { username: user.username })}
                </label>
                <input
                  id={`import-email-${user.username}`}
                  type="email"
                  placeholder="customer@example.com"
                  value={emails[user.username] ?? ''}
                  onChange={(event) => setEmails((current) => ({ ...current, [user.username]: event.target.value }))}
                  disabled={busy}
                  className="w-56 rounded-md border border-slate-300 px-2 py-1 text-sm"
                />
                <button
                  type="button"
                  className={rowButtonClass.neutral}
                  disabled={busy || !(emails[user.username] ?? '').trim()}
                  onClick={() => void importLinks([{ username: user.username, email: emails[user.username] ?? '' }])}
                >
                  {_('admin.import.one')}
                  <span className="sr-only"> {user.username}</span>
                </button>
              </li>
            ))}
          </ul>
          {hasMore && (
            <button type="button" className={buttonClass.secondary} disabled={loading} onClick={() => void loadPage(page + 1)}>
              {loading ? _('admin.import.loading') : _('admin.import.more')}
            </button>
          )}
        </section>

        <section aria-labelledby="import-csv" className="space-y-2">
          <h3 id="import-csv" className="text-sm font-semibold text-slate-900">
            {_('admin.import.csvTitle')}
          </h3>
          <p className="text-xs text-slate-600">{_('admin.import.csvHint')}</p>
          <input
            type="file"
            accept=".csv,text/csv,text/plain"
            onChange={(event) => void readFile(event)}
            disabled={busy}
            aria-label={_('admin.import.csvFile')}
            className="text-sm"
          />
          <textarea
            value={csv}
            onChange={(event) => setCsv(event.target.value)}
            rows={5}
            dir="ltr"
            aria-label={_('admin.import.csvText')}
            placeholder={'username,email\nalice,alice@example.com'}
            disabled={busy}
            className="w-full rounded-md border border-slate-300 p-2 font-mono text-sm"
          />
          <div className="flex flex-wrap justify-end gap-3">
            <button type="button" onClick={onClose} disabled={busy} className={buttonClass.secondary}>
              {_('admin.import.close')}
            </button>
            <button
              type="button"
              onClick={() => void importAll()}
              disabled={busy || (csv.trim() === '' && typedLinks().length === 0)}
              className={buttonClass.primary}
            >
              {busy ? _('admin.import.importing') : _('admin.import.csvImport')}
            </button>
          </div>
        </section>
      </div>
    </Dialog>
  );
}
