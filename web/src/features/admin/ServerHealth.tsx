import type { AdminServer } from '../../../../shared/servers.js';
import { formatDateTime } from './admin-format';
import { StatusBadge } from './StatusBadge';

const LABELS = { up: 'Up', down: 'Down', unknown: 'Not checked yet' } as const;
const TONES = { up: 'green', down: 'red', unknown: 'gray' } as const;

/** What the minute-by-minute health checks found: up or down, latency, and why the last check failed. */
export function ServerHealth({ server }: { server: AdminServer }) {
  const { health } = server;
  if (server.status !== 'active') return <span className="text-xs text-slate-500">Not checked (disabled)</span>;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge tone={TONES[health.state]}>{LABELS[health.state]}</StatusBadge>
        {health.latencyMs !== null && <span className="text-xs whitespace-nowrap text-slate-600">{health.latencyMs} ms</span>}
      </div>
      {health.checkedAt && <p className="text-xs whitespace-nowrap text-slate-500">Checked {formatDateTime(health.checkedAt)}</p>}
      {health.lastError && (
        <p className="max-w-64 text-xs break-words text-red-700" title={health.lastError}>
          {health.state === 'down' && health.since ? `Down since ${formatDateTime(health.since)}: ` : 'Last check failed: '}
          {health.lastError}
        </p>
      )}
    </div>
  );
}
