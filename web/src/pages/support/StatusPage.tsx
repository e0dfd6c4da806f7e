import { useEffect, useState } from 'react';
import { Trans, useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import type { ServiceState, StatusResponse } from '../../../../shared/status.js';
import { apiClient } from '../../api';
import { Loading } from '../../components/Loading';
import { PageHero, Section } from '../../components/content';
import { useFormat } from '../../i18n/format';
import { useLocale } from '../../i18n/locale-context';
import { regionNameIn } from '../../../../shared/region-names.js';

type StatusView = { phase: 'loading'; previous: LoadedStatus | null } | { phase: 'loaded'; status: LoadedStatus } | { phase: 'error' };

interface LoadedStatus {
  /** Shown (and its "Last checked …" time formatted) only after loading, never during the first render. */
  response: StatusResponse;
}

/** Used for /status and /server-status. The prerendered HTML carries the explanation; the live check runs in the browser. */
export default function StatusPage() {
  const { _ } = useLingui();
  const [view, setView] = useState<StatusView>({ phase: 'loading', previous: null });
  const [requestCount, setRequestCount] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    apiClient
      .request<StatusResponse>('GET', '/api/status', { signal: controller.signal })
      .then((response) => {
        setView({ phase: 'loaded', status: { response } });
      })
      .catch(() => {
        if (!controller.signal.aborted) setView({ phase: 'error' });
      });
    return () => controller.abort();
  }, [requestCount]);

  function refresh() {
    setView((current) => ({ phase: 'loading', previous: current.phase === 'loaded' ? current.status : null }));
    setRequestCount((count) => count + 1);
  }

  const shown = view.phase === 'loaded' ? view.status : view.phase === 'loading' ? view.previous : null;

  return (
    <>
      <PageHero eyebrow={_('support.eyebrow')} title={_('support.status.title')} subtitle={_('support.status.subtitle')} />
      <Section width="narrow">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 className="text-2xl font-bold tracking-tight text-slate-900">{_('support.status.current')}</h2>
          <button
            type="button"
            onClick={refresh}
            disabled={view.phase === 'loading'}
            className="rounded-lg bg-indigo-600 px-4 py-2 font-semibold text-white shadow-sm hover:bg-indigo-700 disabled:cursor-not-allowed disabled:opacity-60"
          >
            {_('support.status.refresh')}
          </button>
        </div>
        <div aria-live="polite" className="mt-6">
          {view.phase === 'error' && (
            <p role="alert" className="rounded-xl bg-red-50 p-4 font-medium text-red-800 ring-1 ring-red-200">
              {_('support.status.loadError')}
            </p>
          )}
          {shown ? <StatusBoard status={shown} /> : view.phase === 'loading' && <Loading className="py-10" />}
        </div>
        <p className="mt-8 leading-7 text-slate-700">
          <Trans id="support.status.explanation" components={{ 0: <Link to="/help" className="font-medium text-indigo-700 underline" /> }} />
        </p>
      </Section>
    </>
  );
}

function StatusBoard({ status }: { status: LoadedStatus }) {
  const { _ } = useLingui();
  const format = useFormat();
  const { locale } = useLocale();
  const { response } = status;
  const rows = [
    { key: 'site', name: _('support.status.website'), detail: null, state: response.site },
    { key: 'database', name: _('support.status.database'), detail: null, state: response.database },
    ...response.regions.map((region, index) => ({
      key: `region-${index}`,
      name:
        region.locationNumber === null
          ? regionNameIn(region.name, region.nameTranslations, locale)
          : _('support.status.locationN', { number: format.number(region.locationNumber) }),
      detail: formatLocations(region.locations),
      state: region.status,
    })),
  ];
  const allUp = rows.every((row) => row.state === 'up');

  /** 'all', or the region's country codes, listed with the language's separator. */
  function formatLocations(locations: string): string {
    if (locations.trim().toLowerCase() === 'all') return format.locations('all');
    return locations
      .split(',')
      .map((code) => code.trim())
      .filter(Boolean)
      .join(_('support.status.locationSeparator'));
  }

  const checkedAt = new Date(response.checkedAt);
  const checkedAtLabel = Number.isNaN(checkedAt.getTime()) ? _('support.status.justNow') : format.dateTime(response.checkedAt);

  return (
    <div>
      <p className={`rounded-xl p-4 font-semibold ring-1 ${allUp ? 'bg-emerald-50 text-emerald-900 ring-emerald-200' : 'bg-red-50 text-red-900 ring-red-200'}`}>
        {allUp ? _('support.status.allUp') : _('support.status.someDown')}
      </p>
      <ul className="mt-4 divide-y divide-slate-200 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
        {rows.map((row) => (
          <li key={row.key} className="flex flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-6">
            <div className="min-w-0">
              <p className="font-semibold break-words text-slate-900">{row.name}</p>
              {row.detail && <p className="text-sm break-words text-slate-600">{row.detail}</p>}
            </div>
            <StateBadge state={row.state} />
          </li>
        ))}
      </ul>
      {response.regions.length === 0 && <p className="mt-4 text-slate-600">{_('support.status.noRegions')}</p>}
      <p className="mt-4 text-sm text-slate-600">{_('support.status.lastChecked', { time: checkedAtLabel })}</p>
    </div>
  );
}

function StateBadge({ state }: { state: ServiceState }) {
  const { _ } = useLingui();
  const up = state === 'up';
  return (
    <span
      className={`inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm font-semibold ${
        up ? 'bg-emerald-50 text-emerald-800' : 'bg-red-50 text-red-800'
      }`}
    >
      <span aria-hidden="true" className={`size-2.5 rounded-full ${up ? 'bg-emerald-500' : 'bg-red-500'}`} />
      {up ? _('support.status.up') : _('support.status.down')}
    </span>
  );
}
