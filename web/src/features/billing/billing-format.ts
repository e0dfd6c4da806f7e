import { CURRENCY } from '../../../../shared/billing.js';
import { formatUsd } from '../../../../shared/pricing.js';

/** Cents in the payment's currency, with two decimals: 1299 usd → "$12.99". */
export function formatAmount(cents: number, currency: string = CURRENCY): string {
  if (currency.toLowerCase() === CURRENCY) return formatUsd(cents);
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

/** A date and time in the visitor's own format; '—' without a usable one. */
export function formatDateTime(isoDate: string | null): string {
  const date = isoDate ? new Date(isoDate) : null;
  if (!date || Number.isNaN(date.getTime())) return '—';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A day in the visitor's own format, month as a word ('Dec 24, 2026', '24 Dec 2026'); '—' without a usable one. */
export function formatDate(isoDate: string | null): string {
  const date = isoDate ? new Date(isoDate) : null;
  if (!date || Number.isNaN(date.getTime())) return '—';
  return date.toLocaleDateString(undefined, { dateStyle: 'medium' });
}
