import { useLingui } from '@lingui/react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { useFormat } from '../../i18n/format';
import { useLocale } from '../../i18n/locale-context';
import { regionNameIn } from '../../../../shared/region-names.js';

/**
 * The name customers see for an account's server: its public region name (in the reader's language where the
 * operator wrote one), or "Location N" in the
 * reader's language when the operator gave none (the status page's rule; the API never sends the
 * server's internal name).
 */
export function useRegionName(): (server: NonNullable<VpnAccount['server']>) => string {
  const { _ } = useLingui();
  const format = useFormat();
  const { locale } = useLocale();
  return (server) =>
    server.locationNumber === null
      ? regionNameIn(server.name, server.nameTranslations, locale)
      : _('account.details.locationN', { number: format.number(server.locationNumber) });
}
