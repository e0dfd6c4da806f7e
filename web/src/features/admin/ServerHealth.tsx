import { useLingui } from '@lingui/react';
import type { AdminServer } from '../../../../shared/servers.js';
import { useFormat } from '../../i18n/format';
import { StatusBadge } from './StatusBadge';

const LABEL_IDS = { up: 'admin.health.up', down: 'admin.health.down', unknown: 'admin.health.unknown' } as const;
const TONES = { up: 'green', down: 'red', unknown: 'gray' } as const;

/** What the minute-by-minute health checks found: up or down, latency, and why the last check failed. */
export function ServerHealth({ server }: { server: AdminServer }) {
  const { _ } = useLingui();
  const format = useFormat();
  const { health } = server;
  if (server.status !== 'active') return <span className="text-xs text-slate-500">{_('admin.health.notChecked')}</span>;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge tone={TONES[health.state]}>{_(LABEL_IDS[health.state])}</StatusBadge>
        {health.latencyMs !== null && (
          <span className="text-xs whitespace-nowrap text-slate-600">{_('admin.health.latency', { ms: format.number(health.latencyMs) })}</span>
        )}
      </div>
      {health.checkedAt && <p className="text-xs text-slate-500">{_('admin.health.checked', { time: format.dateTime(health.checkedAt) })}</p>}
      {health.lastError && (
        <p className="max-w-64 text-xs break-words text-red-700" title={health.lastError}>
          {health.state === 'down' && health.since ? _('admin.health.downSince', { time: format.dateTime(health.since) }) : _('admin.health.lastFailed')}{' '}
          {health.lastError}
        </p>
      )}
    </div>
  );
}
