import { currencyDecimals } from '../../../../../shared/currencies.js';
import { DEVICE_LIMIT_MAX } from '../../../../../shared/devices.js';
import type { AddOn, AddOnKind, AddOnPatchBody, AddOnTranslations, AddOnUntil } from '../../../../../shared/add-ons.js';
import { minorToDecimal } from '../../../../../shared/money.js';
import { TRANSLATED_LOCALES, type TranslatedLocale } from '../../../../../shared/plan-translations.js';
import { BYTES_PER_GB, BYTES_PER_MB } from '../admin-format';
import { priceOf, type Translate } from '../plan-form';

/** The most traffic one add-on may give (shared/add-ons.ts): 100 TB, in GB as the form takes it. */
export const TRAFFIC_MAX_GB = 100 * 1024;

/**
 * What the add-on form holds, numbers as typed: the amount is devices, or gigabytes of traffic (sent as bytes);
 * the price is in major units of the store's currency ('4.99'), as in the plan form.
 */
export interface AddOnFormValues {
  name: string;
  /** The name in each other language; empty falls back to the English. */
  translations: Record<TranslatedLocale, string>;
  kind: AddOnKind;
  amount: string;
  price: string;
  /** The plans it is sold for; none ticked: every plan. */
  planIds: string[];
  until: AddOnUntil;
}

/** What the amount field starts at for each kind (switching kind puts it back). */
export const DEFAULT_AMOUNT: Record<AddOnKind, string> = { devices: '1', traffic: '50' };

export const NEW_ADD_ON: AddOnFormValues = {
  name: '',
  translations: { ru: '', fa: '', 'zh-CN': '' },
  kind: 'devices',
  amount: DEFAULT_AMOUNT.devices,
  price: '',
  planIds: [],
  until: 'period_end',
};

/** Switching kind puts that kind's default in the amount field (devices and gigabytes are not the same number). */
export function withKind(values: AddOnFormValues, kind: AddOnKind): AddOnFormValues {
  return kind === values.kind ? values : { ...values, kind, amount: DEFAULT_AMOUNT[kind] };
}

/** Gigabytes with at most three decimals ('50', '0.5', '1.25'). */
const gigabytes = (bytes: number) => String(Number((bytes / BYTES_PER_GB).toFixed(3)));

/** A saved add-on in the form: traffic in GB, the price (minor units of the store's `currency`) in major units. */
export function valuesFromAddOn(addOn: AddOn, currency: string): AddOnFormValues {
  const translations = { ...NEW_ADD_ON.translations };
  for (const locale of TRANSLATED_LOCALES) translations[locale] = addOn.translations[locale]?.name ?? '';
  return {
    name: addOn.name,
    translations,
    kind: addOn.kind,
    amount: addOn.kind === 'traffic' ? gigabytes(addOn.amount) : String(addOn.amount),
    price: minorToDecimal(addOn.price, currency),
    planIds: addOn.appliesTo ?? [],
    until: addOn.until,
  };
}

/** The amount to send: devices as typed, gigabytes as bytes; NaN when the field is no number. */
export function amountOf(values: Pick<AddOnFormValues, 'kind' | 'amount'>): number {
  const text = values.amount.trim();
  const typed = text === '' ? Number.NaN : Number(text);
  return values.kind === 'traffic' ? Math.round(typed * BYTES_PER_GB) : typed;
}

export type AddOnFormProblems = Partial<Record<'amount' | 'price', string>>;

/**
 * Why the add-on cannot be saved as it stands, per field, in the admin's language, before asking the server:
 * devices a whole number from 1 to the device limit's maximum, traffic from 1 MB to 100 TB, and a price above
 * 0 in the store's `currency` (no more decimals than it has). Empty when it is fine.
 */
export function addOnFormProblems(values: AddOnFormValues, _: Translate, currency: string): AddOnFormProblems {
  const problems: AddOnFormProblems = {};
  const amount = amountOf(values);
  if (values.kind === 'devices' && !(Number.isInteger(amount) && amount >= 1 && amount <= DEVICE_LIMIT_MAX))
    problems.amount = _('admin.addOns.devicesProblem', { max: String(DEVICE_LIMIT_MAX) });
  if (values.kind === 'traffic' && !(amount >= BYTES_PER_MB && amount <= TRAFFIC_MAX_GB * BYTES_PER_GB))
    problems.amount = _('admin.addOns.trafficProblem', { max: String(TRAFFIC_MAX_GB) });
  const price = priceOf(values, currency);
  if (values.price.trim() !== '' && price === null)
    problems.price = _('admin.planForm.priceProblem', { currency: currency.toUpperCase(), decimals: currencyDecimals(currency) });
  else if (!price) problems.price = _('admin.addOns.priceRequired');
  return problems;
}

/** The translations to save: each language with a name typed, the others left out (cleared on the server too). */
export function translationsOf(values: Pick<AddOnFormValues, 'translations'>): AddOnTranslations {
  const translations: AddOnTranslations = {};
  for (const locale of TRANSLATED_LOCALES) {
    const name = values.translations[locale].trim();
    if (name) translations[locale] = { name };
  }
  return translations;
}

/**
 * The whole add-on to save (`POST`, or `PATCH` with every field: kind and amount always go together); the price in
 * minor units of the store's `currency` (check addOnFormProblems first). No plan ticked sells it for every plan (null).
 */
export function toAddOnBody(values: AddOnFormValues, currency: string): Required<Omit<AddOnPatchBody, 'status'>> {
  return {
    name: values.name.trim(),
    kind: values.kind,
    amount: amountOf(values),
    price: priceOf(values, currency) ?? Number.NaN,
    translations: translationsOf(values),
    appliesTo: values.planIds.length > 0 ? values.planIds : null,
    until: values.until,
  };
}

/** Traffic as the table shows it: gigabytes with up to two decimals ('50 GB', '1.5 GB'), megabytes under 1 GB. */
export function trafficText(bytes: number, locale: string): string {
  const [unit, value] = bytes >= BYTES_PER_GB ? ['gigabyte', bytes / BYTES_PER_GB] : ['megabyte', bytes / BYTES_PER_MB];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 2 }).format(value);
}
