import { useLingui } from '@lingui/react';
import type { BackupStatus } from '../../../../shared/accounts.js';
import { useFormat } from '../../i18n/format';
import { cardClass } from './admin-ui';
import { StatusBadge } from './StatusBadge';

const HOUR_SECONDS = 3600;

/** How long ago, in hours under two days, else in days. */
function useAge() {
  const { _ } = useLingui();
  return (seconds: number) =>
    seconds < 48 * HOUR_SECONDS
      ? _('adminSettings.system.backupAgeHours', { hours: Math.floor(seconds / HOUR_SECONDS) })
      : _('adminSettings.system.backupAgeDays', { days: Math.floor(seconds / (24 * HOUR_SECONDS)) });
}

/** The backups (docs/backups.md): the newest one, its age, and the daily schedule. */
export function BackupsCard({ backups }: { backups: BackupStatus }) {
  const { _ } = useLingui();
  const format = useFormat();
  const age = useAge();
  return (
    <div className={`${cardClass} p-4`} data-testid="backups-card">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{_('adminSettings.system.backups')}</dt>
      <dd className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-900">
        {backups.last ? (
          <>
            <StatusBadge tone={backups.alert ? 'amber' : 'green'}>{age(backups.last.ageSeconds)}</StatusBadge>
            <span>{_('adminSettings.system.backupLast', { when: format.dateTime(backups.last.takenAt) })}</span>
          </>
        ) : (
          <StatusBadge tone={backups.alert ? 'amber' : 'gray'}>{_('adminSettings.system.backupNone')}</StatusBadge>
        )}
        <span className="block w-full text-xs text-slate-500">
          {backups.scheduledAt
            ? _('adminSettings.system.backupScheduled', { time: backups.scheduledAt, keep: backups.keep })
            : _('adminSettings.system.backupNotScheduled')}
        </span>
      </dd>
    </div>
  );
}

/** A warning above the System tab while the newest backup is over a day old (or none was taken on schedule). */
export function BackupsAlert({ backups }: { backups: BackupStatus }) {
  const { _ } = useLingui();
  if (!backups.alert) return null;
  return (
    <div role="alert" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      {backups.last ? _('adminSettings.system.backupStale') : _('adminSettings.system.backupMissing')}
    </div>
  );
}
