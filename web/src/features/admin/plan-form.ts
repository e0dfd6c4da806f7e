import type { I18n } from '@lingui/core';
import { RECURRING_DAYS, renewalIntervalOf, type RenewalInterval, type RenewalUnit } from '../../../../shared/plan-billing.js';
import { currencyDecimals } from '../../../../shared/currencies.js';
import { decimalToMinor, minorToDecimal } from '../../../../shared/money.js';
import {
  HOURS_MODE_DEFAULTS,
  PLAN_DEFAULTS,
  PLAN_TRAFFIC_LIMITS,
  PlanBody,
  trafficRulesProblems,
  type AdminPlan,
  type PlanBilling,
  type TrafficReset,
} from '../../../../shared/plans.js';
import type { PlanServer } from '../../../../shared/plan-servers.js';
import { TRANSLATED_LOCALES, type PlanTranslation, type PlanTranslations, type TranslatedLocale } from '../../../../shared/plan-translations.js';
import { BYTES_PER_GB, BYTES_PER_MB, HOURS_PER_DAY } from './admin-format';

/**
 * What the plan form holds. Numbers stay strings while typed. In hours mode the duration is in
 * hours and the data limit in MB; otherwise days and GB.
 */
export interface PlanFormValues {
  name: string;
  hoursMode: boolean;
  duration: string;
  dataLimit: string;
  /** Major units of the store's currency, with at most its decimals ('4.99' dollars, '1500' yen, '1.500' dinars). */
  price: string;
  locations: string;
  /** The servers its accounts may use, with their squads or groups there (none: any that covers the locations). */
  servers: PlanServer[];
  active: boolean;
  isTrial: boolean;
  /** The pricing page: tier name (empty: the plan is a tier of its own), one feature per line, order, badge, listed. */
  tier: string;
  features: string;
  sortOrder: string;
  mostPopular: boolean;
  public: boolean;
  /** Paid once for its period, or charged again every period until cancelled. */
  billing: PlanBilling;
  /** How many devices one account may use; empty = unlimited. */
  deviceLimit: string;
  /** Whole Telegram Stars the bot sells it for; empty = not sold for Stars. */
  starsPrice: string;
  /** The name, tier and feature lines in each other language, as typed; empty falls back to the English. */
  translations: Record<TranslatedLocale, TranslationValues>;
  /** Whether the data limit starts again every month of a longer plan. */
  trafficReset: TrafficReset;
  /** Unused data goes to the next month or period. */
  trafficCarryOver: boolean;
  /** Days it runs after its paid end when nothing renews it ('0' for none). */
  graceDays: string;
  /** Data during those days, in the data limit's unit (GB, or MB in hours mode); empty: the limit stays. */
  graceData: string;
}

/** One language's texts as typed (features one per line, like the English box). */
export interface TranslationValues {
  name: string;
  tier: string;
  features: string;
}

const noTranslations = (): Record<TranslatedLocale, TranslationValues> =>
  Object.fromEntries(TRANSLATED_LOCALES.map((locale) => [locale, { name: '', tier: '', features: '' }])) as Record<TranslatedLocale, TranslationValues>;

/** A saved plan's translations in the form: what is not given stays empty. */
function translationValues(translations: PlanTranslations): Record<TranslatedLocale, TranslationValues> {
  const values = noTranslations();
  for (const locale of TRANSLATED_LOCALES) {
    const saved = translations[locale];
    if (saved) values[locale] = { name: saved.name ?? '', tier: saved.tier ?? '', features: (saved.features ?? []).join('\n') };
  }
  return values;
}

/** The translations to save: each language with what was typed in it, a language left empty left out. */
export function translationsOf(values: Pick<PlanFormValues, 'translations'>): PlanTranslations {
  const translations: PlanTranslations = {};
  for (const locale of TRANSLATED_LOCALES) {
    const typed = values.translations[locale];
    const translation: PlanTranslation = {};
    if (typed.name.trim()) translation.name = typed.name.trim();
    if (typed.tier.trim()) translation.tier = typed.tier.trim();
    const features = featureLines(typed.features);
    if (features.length > 0) translation.features = features;
    if (Object.keys(translation).length > 0) translations[locale] = translation;
  }
  return translations;
}

const DAYS_MODE_UNITS = { duration: String(PLAN_DEFAULTS.days), dataLimit: String(PLAN_DEFAULTS.dataLimitGb) };
const HOURS_MODE_UNITS = {
  duration: String(HOURS_MODE_DEFAULTS.days * HOURS_PER_DAY),
  dataLimit: String(HOURS_MODE_DEFAULTS.dataLimitMb),
};

export const NEW_PLAN_VALUES: PlanFormValues = {
  name: '',
  hoursMode: false,
  ...DAYS_MODE_UNITS,
  price: String(PLAN_DEFAULTS.price),
  locations: '',
  servers: [],
  active: PLAN_DEFAULTS.status === 'active',
  isTrial: false,
  tier: '',
  features: '',
  sortOrder: '0',
  mostPopular: false,
  public: true,
  billing: 'one_off',
  deviceLimit: '',
  starsPrice: '',
  translations: noTranslations(),
  trafficReset: 'none',
  trafficCarryOver: false,
  graceDays: '0',
  graceData: '',
};

/** Switching mode puts that mode's defaults in the duration and data fields (3 h and 300 MB, or 30 days and 50 GB). */
export function withHoursMode(values: PlanFormValues, hoursMode: boolean): PlanFormValues {
  return { ...values, hoursMode, ...(hoursMode ? HOURS_MODE_UNITS : DAYS_MODE_UNITS) };
}

const round2 = (value: number) => String(Number(value.toFixed(2)));

/**
 * A saved plan in the form: hours mode when its duration is not a whole number of days; its price (minor
 * units of the store's `currency`) in major units with the currency's decimals.
 */
export function valuesFromPlan(plan: AdminPlan, currency: string): PlanFormValues {
  const hoursMode = !Number.isInteger(plan.days);
  return {
    name: plan.name,
    hoursMode,
    duration: round2(hoursMode ? plan.days * HOURS_PER_DAY : plan.days),
    dataLimit: round2(plan.dataLimitBytes / (hoursMode ? BYTES_PER_MB : BYTES_PER_GB)),
    price: minorToDecimal(plan.price, currency),
    locations: plan.locations === 'all' ? '' : plan.locations,
    servers: plan.servers ?? [],
    active: plan.status === 'active',
    isTrial: plan.isTrial,
    tier: plan.tier ?? '',
    features: plan.features.join('\n'),
    sortOrder: String(plan.sortOrder),
    mostPopular: plan.mostPopular,
    public: plan.public,
    billing: plan.billing,
    deviceLimit: String(plan.deviceLimit ?? ''),
    starsPrice: String(plan.starsPrice ?? ''),
    translations: translationValues(plan.translations ?? {}),
    trafficReset: plan.trafficReset ?? 'none',
    trafficCarryOver: plan.trafficCarryOver ?? false,
    graceDays: String(plan.graceDays ?? 0),
    graceData: plan.graceDataBytes ? round2(plan.graceDataBytes / (hoursMode ? BYTES_PER_MB : BYTES_PER_GB)) : '',
  };
}

/** The feature lines typed in the text box: one per line, blank lines dropped. */
export function featureLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The duration typed, in days (hours mode divides by 24). */
export function daysOf(values: PlanFormValues): number {
  const duration = Number(values.duration);
  return values.hoursMode ? duration / HOURS_PER_DAY : duration;
}

/** Translates a message id (Lingui's `_`, from useLingui()). */
export type Translate = I18n['_'];

const INTERVAL_IDS: Record<RenewalUnit, string> = {
  day: 'admin.interval.day',
  week: 'admin.interval.week',
  month: 'admin.interval.month',
  year: 'admin.interval.year',
};

/** How often a recurring plan is charged, in words: 'every month', 'every 3 months', 'every 10 days'. */
export function intervalText(_: Translate, interval: RenewalInterval): string {
  return _(INTERVAL_IDS[interval.unit], { count: interval.count });
}

/** The device limit typed: empty is unlimited (null); anything else as the number it reads. */
export function deviceLimitOf(values: Pick<PlanFormValues, 'deviceLimit'>): number | null {
  const text = values.deviceLimit.trim();
  return text === '' ? null : Number(text);
}

/** What the shared plan schema says about the device limit typed (its own words, as the server would answer); null when it is fine. */
export function deviceLimitProblem(values: Pick<PlanFormValues, 'deviceLimit'>): string | null {
  const checked = PlanBody.shape.deviceLimit.safeParse(deviceLimitOf(values));
  return checked.success ? null : (checked.error.issues[0]?.message ?? null);
}

/** The Stars price typed: empty is not sold for Stars (null); anything else as the number it reads. */
export function starsPriceOf(values: Pick<PlanFormValues, 'starsPrice'>): number | null {
  const text = values.starsPrice.trim();
  return text === '' ? null : Number(text);
}

/** What the shared plan schema says about the Stars price typed (its own words, as the server would answer); null when it is fine. */
export function starsPriceProblem(values: Pick<PlanFormValues, 'starsPrice'>): string | null {
  const checked = PlanBody.shape.starsPrice.safeParse(starsPriceOf(values));
  return checked.success ? null : (checked.error.issues[0]?.message ?? null);
}

/** The grace days typed, as the number they read (empty is 0). */
export function graceDaysOf(values: Pick<PlanFormValues, 'graceDays'>): number {
  const text = values.graceDays.trim();
  return text === '' ? 0 : Number(text);
}

/** The grace data typed, in bytes (GB, or MB in hours mode); empty: none (null). */
export function graceDataBytesOf(values: Pick<PlanFormValues, 'graceData' | 'hoursMode'>): number | null {
  const text = values.graceData.trim();
  return text === '' ? null : Math.round(Number(text) * (values.hoursMode ? BYTES_PER_MB : BYTES_PER_GB));
}

/**
 * What is wrong with the traffic rules typed, per field, in the admin's language: grace days a whole number from 0 to
 * 30, grace data at least 1 MB and only with grace days, and a monthly reset only for a plan of more than 31 days.
 */
export function trafficProblems(values: PlanFormValues, _: Translate): Partial<Record<'trafficReset' | 'graceDays' | 'graceData', string>> {
  const problems: Partial<Record<'trafficReset' | 'graceDays' | 'graceData', string>> = {};
  const graceDays = graceDaysOf(values);
  const graceDataBytes = graceDataBytesOf(values);
  if (!PlanBody.shape.graceDays.safeParse(graceDays).success)
    problems.graceDays = _('admin.planForm.graceDaysProblem', { max: String(PLAN_TRAFFIC_LIMITS.graceDaysMax) });
  if (!PlanBody.shape.graceDataBytes.safeParse(graceDataBytes).success) problems.graceData = _('admin.planForm.graceDataProblem');
  const together = trafficRulesProblems({
    days: daysOf(values),
    trafficReset: values.trafficReset,
    graceDays: problems.graceDays ? 0 : graceDays,
    graceDataBytes,
  });
  if (together.trafficReset && values.duration.trim() !== '')
    problems.trafficReset = _('admin.planForm.trafficResetProblem', { days: String(PLAN_TRAFFIC_LIMITS.monthlyResetMinDays) });
  if (together.graceDataBytes && !problems.graceDays && !problems.graceData) problems.graceData = _('admin.planForm.graceDataNeedsDays');
  return problems;
}

export type PlanFormProblems = Partial<Record<'billing' | 'deviceLimit' | 'price' | 'starsPrice' | 'trafficReset' | 'graceDays' | 'graceData', string>>;

/** The price typed, in minor units of the store's `currency`; null when it is not an amount in it (more decimals than it has). */
export function priceOf(values: Pick<PlanFormValues, 'price'>, currency: string): number | null {
  const minor = decimalToMinor(values.price, currency, { roundExtra: false });
  return minor !== null && minor >= 0 ? minor : null;
}

/**
 * Why the plan cannot be saved as it stands, per field, before asking the server: a recurring plan
 * needs a duration a payment provider can bill (whole days, up to three years), a device limit and a
 * Stars price are whole numbers in range or nothing, and the price an amount in the store's `currency`
 * (no more decimals than it has: none in yen). Empty when it is fine.
 */
export function planFormProblems(values: PlanFormValues, _: Translate, currency: string): PlanFormProblems {
  const problems: PlanFormProblems = {};
  if (values.price.trim() !== '' && priceOf(values, currency) === null) {
    problems.price = _('admin.planForm.priceProblem', { currency: currency.toUpperCase(), decimals: currencyDecimals(currency) });
  }
  const billable = values.billing !== 'recurring' || values.duration.trim() === '' || renewalIntervalOf(daysOf(values));
  if (!billable) problems.billing = _('admin.planForm.recurringProblem', { min: String(RECURRING_DAYS.min), max: String(RECURRING_DAYS.max) });
  const deviceLimit = deviceLimitProblem(values);
  if (deviceLimit) problems.deviceLimit = deviceLimit;
  const starsPrice = starsPriceProblem(values);
  if (starsPrice) problems.starsPrice = starsPrice;
  return { ...problems, ...trafficProblems(values, _) };
}

/** The plan to save; the price in minor units of the store's `currency` (check planFormProblems first). */
export function toPlanBody(values: PlanFormValues, currency: string): PlanBody {
  const dataLimit = Number(values.dataLimit);
  return {
    name: values.name.trim(),
    days: daysOf(values),
    dataLimitBytes: Math.round(dataLimit * (values.hoursMode ? BYTES_PER_MB : BYTES_PER_GB)),
    price: priceOf(values, currency) ?? Number.NaN,
    locations: values.locations.trim() || 'all',
    servers: values.servers,
    status: values.active ? 'active' : 'disabled',
    isTrial: values.isTrial,
    tier: values.tier.trim() || null,
    features: featureLines(values.features),
    sortOrder: Number(values.sortOrder || 0),
    mostPopular: values.mostPopular,
    public: values.public,
    billing: values.billing,
    deviceLimit: deviceLimitOf(values),
    starsPrice: starsPriceOf(values),
    // The whole object: what was cleared here is cleared on the server too.
    translations: translationsOf(values),
    trafficReset: values.trafficReset,
    trafficCarryOver: values.trafficCarryOver,
    graceDays: graceDaysOf(values),
    graceDataBytes: graceDataBytesOf(values),
  };
}
