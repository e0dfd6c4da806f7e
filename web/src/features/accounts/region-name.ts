import { useLingui } from '@lingui/react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { useFormat } from '../../i18n/format';

/**
 * The name customers see for an account's server: its public region name, or "Location N" in the
 * reader's language when the operator gave none (the status page's rule; the API never sends the
 * server's internal name).
 */
export function useRegionName(): (server: NonNullable<VpnAccount['server']>) => string {
  const { _ } = useLingui();
  const format = useFormat();
  return (server) => (server.locationNumber === null ? server.name : _('account.details.locationN', { number: format.number(server.locationNumber) }));
}
