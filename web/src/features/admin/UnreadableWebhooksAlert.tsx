import { useLingui } from '@lingui/react';
import type { UnreadableWebhookAlert } from '../../../../shared/billing.js';
import { useFormat } from '../../i18n/format';
import { AlertBox } from './AlertBox';

const PROVIDER_NAMES: Record<string, string> = { stripe: 'Stripe', btcpay: 'BTCPay Server' };

/** Webhook events refused because their API version (or shape) could not be read: which version, how often, when last. */
export function UnreadableWebhooksAlert({ alerts }: { alerts: UnreadableWebhookAlert[] }) {
  const { _ } = useLingui();
  const format = useFormat();
  if (alerts.length === 0) return null;
  return (
    <AlertBox>
      <p className="font-semibold">{_('adminSettings.system.unreadableWebhooks.title')}</p>
      <ul className="mt-2 space-y-2">
        {alerts.map((alert) => (
          <li key={`${alert.provider}:${alert.apiVersion}`}>
            {_('adminSettings.system.unreadableWebhooks.item', {
              provider: PROVIDER_NAMES[alert.provider] ?? alert.provider,
              version: alert.apiVersion,
              count: alert.timesSeen,
              lastSeen: format.dateTime(alert.lastSeenAt),
            })}
            <span className="mt-1 block font-mono text-xs wrap-anywhere">{alert.reason}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2">{_('adminSettings.system.unreadableWebhooks.help')}</p>
    </AlertBox>
  );
}
