import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import type { SystemStatus } from '../../../../shared/accounts.js';
import { DESKTOP_CHANNELS, DESKTOP_PLATFORMS } from '../../../../shared/desktop-releases.js';
import { PLATFORM_NAMES } from '../../../../shared/platforms.js';
import type { RecurringMetrics } from '../../../../shared/billing.js';
import { useFormat } from '../../i18n/format';
import { cardClass } from './admin-ui';
import { AlertBox } from './AlertBox';
import { BackupsCard } from './BackupsCard';
import { StatusBadge } from './StatusBadge';

function SummaryCard({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={`${cardClass} p-4`}>
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

const okBadge = (ok: boolean, okText: string, failText: string) => <StatusBadge tone={ok ? 'green' : 'red'}>{ok ? okText : failText}</StatusBadge>;

/** Where the rate limits count: this instance, Redis, or each instance on its own while Redis is away (an alert). */
function RateLimitsCard({ rateLimits }: { rateLimits: SystemStatus['rateLimits'] }) {
  const { _ } = useLingui();
  const format = useFormat();
  return (
    <SummaryCard label={_('adminSettings.system.rateLimits')}>
      {rateLimits.store === 'memory_fallback' ? (
        <>
          <StatusBadge tone="red">{_('adminSettings.system.rateLimitsFallback')}</StatusBadge>
          <span className="block w-full text-xs text-slate-500">
            {_('adminSettings.system.rateLimitsFallbackSince', { since: format.dateTime(rateLimits.redisDownSince) })}
          </span>
        </>
      ) : (
        <>
          {okBadge(true, _('adminSettings.system.ok'), _('adminSettings.system.down'))}
          <span>{rateLimits.store === 'redis' ? 'Redis' : _('adminSettings.system.rateLimitsMemory')}</span>
        </>
      )}
    </SummaryCard>
  );
}

/** Database, mail, rate limits, card payments and version, as a row of cards. */
export function SystemSummary({ status }: { status: SystemStatus }) {
  const { _ } = useLingui();
  const { database, mail, rateLimits, payments, version, desktopApp } = status;
  const channelName = { stable: _('adminSettings.system.desktopStable'), beta: _('adminSettings.system.desktopBeta') };
  const enabledBadge = (enabled: boolean) => (
    <StatusBadge tone={enabled ? 'green' : 'gray'}>{enabled ? _('adminSettings.system.enabled') : _('adminSettings.system.notEnabled')}</StatusBadge>
  );
  return (
    <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <SummaryCard label={_('adminSettings.system.database')}>
        {okBadge(database.ok, _('adminSettings.system.ok'), _('adminSettings.system.down'))}
        <span>{database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}</span>
      </SummaryCard>
      <SummaryCard label={_('adminSettings.system.mail')}>
        {okBadge(mail.ok, _('adminSettings.system.ok'), _('adminSettings.system.failing'))}
        <span>{mail.kind === 'smtp' ? 'SMTP' : _('adminSettings.system.mailToLog')}</span>
      </SummaryCard>
      <RateLimitsCard rateLimits={rateLimits} />
      <SummaryCard label={_('adminSettings.system.cardPayments')}>{enabledBadge(payments.cardEnabled)}</SummaryCard>
      <SummaryCard label={_('adminSettings.system.cryptoPayments')}>{enabledBadge(payments.cryptoEnabled)}</SummaryCard>
      <BackupsCard backups={status.backups} />
      <SummaryCard label={_('adminSettings.system.version')}>
        <span className="font-mono">{version}</span>
      </SummaryCard>
      <SummaryCard label={_('adminSettings.system.desktopApp')}>
        <ul className="w-full space-y-1" data-testid="desktop-app-versions">
          {DESKTOP_CHANNELS.map((channel) => {
            const published = DESKTOP_PLATFORMS.filter((platform) => desktopApp[channel][platform] !== null);
            return (
              <li key={channel}>
                <span className="font-medium">{channelName[channel]}:</span>{' '}
                {published.length === 0 ? (
                  <span className="text-slate-500">{_('adminSettings.system.desktopNotPublished')}</span>
                ) : (
                  published.map((platform) => (
                    <span key={platform} className="me-2 inline-block">
                      {PLATFORM_NAMES[platform]}{' '}
                      <span className="font-mono" dir="ltr">
                        {desktopApp[channel][platform]}
                      </span>
                    </span>
                  ))
                )}
              </li>
            );
          })}
        </ul>
      </SummaryCard>
    </dl>
  );
}

/** A count or sum, big. */
const figure = (value: string) => <span className="text-2xl font-semibold tabular-nums">{value}</span>;

/**
 * The recurring business at a glance: subscriptions by state and the monthly recurring revenue, and
 * an alert while some cannot be read from the provider (their lost renewals would not be applied).
 */
export function RecurringSummary({ metrics }: { metrics: RecurringMetrics }) {
  const { _ } = useLingui();
  const format = useFormat();
  return (
    <>
      {metrics.unreadable > 0 && (
        <AlertBox>
          {_('adminSettings.system.unreadable', { count: metrics.unreadable })}
          {metrics.lastReadError && (
            <span className="mt-1 block wrap-anywhere">{_('adminSettings.system.lastReadError', { error: metrics.lastReadError })}</span>
          )}
        </AlertBox>
      )}
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SummaryCard label={_('adminSettings.system.activeRecurring')}>{figure(format.number(metrics.activeRecurring))}</SummaryCard>
        <SummaryCard label={_('adminSettings.system.pastDue')}>
          {figure(format.number(metrics.pastDue))}
          {metrics.pastDue > 0 && <StatusBadge tone="amber">{_('adminSettings.system.renewalFailed')}</StatusBadge>}
        </SummaryCard>
        <SummaryCard label={_('adminSettings.system.canceling')}>{figure(format.number(metrics.cancelingAtPeriodEnd))}</SummaryCard>
        <SummaryCard label={_('adminSettings.system.mrrIn', { currency: metrics.currency.toUpperCase() })}>
          {figure(format.money(metrics.monthlyRecurringRevenue, metrics.currency))}
          {metrics.otherCurrencies.length > 0 && (
            <span className="block w-full text-xs text-slate-500">
              {_('adminSettings.system.mrrOtherCurrencies', {
                amounts: format.list(metrics.otherCurrencies.map((other) => format.money(other.monthlyRecurringRevenue, other.currency))),
              })}
            </span>
          )}
        </SummaryCard>
      </dl>
    </>
  );
}
