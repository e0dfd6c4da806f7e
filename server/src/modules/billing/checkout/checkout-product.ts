import { planText } from '../../../../../shared/plan-translations.js';
import { locationName } from '../../../../../shared/plan-servers.js';
import { formatBytes } from '../../../../../shared/plan-format.js';
import type { Locale } from '../../../../../shared/locales.js';
import { formatDataSize } from '../../../mail/money.js';
import { emailText } from '../../../mail/messages/index.js';
import type { PlanRecord } from '../../plans/index.js';
import type { CheckoutKind } from '../billing.repo.js';
import { describePlan } from '../recurring/recurring-catalog.js';

const BYTES_PER_GB = 1024 ** 3;
const BYTES_PER_MB = 1024 ** 2;

/** "300 ГБ", "۳۰۰ GB": whole gigabytes (whole megabytes below 1 GB), in the language's digits and unit. */
function dataIn(bytes: number, locale: Locale): string {
  if (locale === 'en') return formatBytes(bytes);
  return bytes >= BYTES_PER_GB
    ? formatDataSize(Math.round(bytes / BYTES_PER_GB), 'gigabyte', locale, 0)
    : formatDataSize(Math.round(bytes / BYTES_PER_MB), 'megabyte', locale, 0);
}

/** "30 дней · 50 ГБ · Все локации": describePlan in the customer's language (English is describePlan itself). */
function describePlanIn(plan: PlanRecord, locale: Locale): string {
  if (locale === 'en') return describePlan(plan);
  const duration =
    plan.days < 1
      ? emailText(locale, 'checkout.hours', { hours: Math.max(1, Math.round(plan.days * 24)) })
      : emailText(locale, 'checkout.days', { days: Number(plan.days.toFixed(1)) });
  // Country codes by their name in the customer's language ('DE' → 'Германия'), never the raw code.
  const locations =
    plan.locations === 'all' || plan.locations === ''
      ? emailText(locale, 'checkout.allLocations')
      : plan.locations
          .split(',')
          .map((code) => locationName(code, locale))
          .join(', ');
  return emailText(locale, 'checkout.summary', { duration, data: dataIn(plan.dataLimitBytes, locale), locations });
}

/**
 * What the payment provider's page names the order with, in the customer's language: the plan's name as
 * the operator translated it (English where they did not), and its period, data and locations.
 */
export function checkoutProduct(plan: PlanRecord, kind: CheckoutKind, locale: Locale): { productName: string; description: string } {
  const name = planText(plan, locale).name;
  return {
    productName: kind === 'renewal' ? emailText(locale, 'checkout.renewalProduct', { plan: name }) : name,
    description: describePlanIn(plan, locale),
  };
}
