import type { PlanText, PlanTranslations, TranslatedLocale } from '../../../../shared/plan-translations.js';

/**
 * The names, tiers and feature lines of a fresh install's plans, in English and in the other languages
 * of the site. plans.seed.ts writes them; migration 024 gives the same translations to the seeded plans
 * of an install from before, where the operator has not changed their English texts (from its own frozen copy,
 * migrations/024-seed-plan-texts.ts).
 */

export type SeedTierKey = 'complete' | 'plus' | 'basic';
export type SeedPeriodKey = 'month' | 'year' | 'twoYears';

export const SEED_PERIOD_MONTHS: Record<SeedPeriodKey, number> = { month: 1, year: 12, twoYears: 24 };

/** What a language needs to write a seeded plan's texts. */
interface SeedLanguage {
  tier: Record<SeedTierKey, string>;
  /** The plan's name: tier and period. */
  name(tier: string, period: SeedPeriodKey): string;
  /** The data line: the whole period's gigabytes, written in the language's own digits. */
  data(gb: number, period: SeedPeriodKey): string;
  everyLocation: string;
  unlimitedDevices: string;
  apps: string;
  support: { priority: string; standard: string };
}

const gbIn = (locale: string) => (gb: number) => gb.toLocaleString(locale);

const en = gbIn('en-US');
const ru = gbIn('ru-RU');
const fa = gbIn('fa-IR');
const zh = gbIn('zh-CN');

const LANGUAGES: { en: SeedLanguage } & Record<TranslatedLocale, SeedLanguage> = {
  en: {
    tier: { complete: 'Complete', plus: 'Plus', basic: 'Basic' },
    name: (tier, period) => `${tier} ${{ month: '1 Month', year: '1 Year', twoYears: '2 Years' }[period]}`,
    data: (gb, period) => `${en(gb)} GB of data ${{ month: 'every month', year: 'for the year', twoYears: 'for the 2 years' }[period]}`,
    everyLocation: 'Servers in every location',
    unlimitedDevices: 'Unlimited devices on one subscription link',
    apps: 'Open-source apps for Windows, macOS, Linux, Android and iOS',
    support: { priority: 'Priority e-mail support', standard: 'E-mail support' },
  },
  ru: {
    tier: { complete: 'Максимум', plus: 'Плюс', basic: 'Базовый' },
    name: (tier, period) => `${tier} ${{ month: '1 месяц', year: '1 год', twoYears: '2 года' }[period]}`,
    data: (gb, period) => `${ru(gb)} ГБ трафика ${{ month: 'в месяц', year: 'на год', twoYears: 'на 2 года' }[period]}`,
    everyLocation: 'Серверы во всех локациях',
    unlimitedDevices: 'Сколько угодно устройств по одной ссылке подписки',
    apps: 'Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS',
    support: { priority: 'Приоритетная поддержка по e-mail', standard: 'Поддержка по e-mail' },
  },
  fa: {
    tier: { complete: 'کامل', plus: 'پلاس', basic: 'پایه' },
    name: (tier, period) => `${tier} ${{ month: '۱ ماهه', year: '۱ ساله', twoYears: '۲ ساله' }[period]}`,
    data: (gb, period) => `${fa(gb)} گیگابایت داده ${{ month: 'در ماه', year: 'برای یک سال', twoYears: 'برای ۲ سال' }[period]}`,
    everyLocation: 'سرور در همهٔ موقعیت‌ها',
    unlimitedDevices: 'دستگاه‌های نامحدود با یک لینک اشتراک',
    apps: 'برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS',
    support: { priority: 'پشتیبانی ایمیلی با اولویت', standard: 'پشتیبانی ایمیلی' },
  },
  'zh-CN': {
    tier: { complete: '旗舰版', plus: '高级版', basic: '基础版' },
    name: (tier, period) => `${tier} ${{ month: '1 个月', year: '1 年', twoYears: '2 年' }[period]}`,
    data: (gb, period) => `${{ month: '每月', year: '全年共', twoYears: '两年共' }[period]} ${zh(gb)} GB 流量`,
    everyLocation: '可使用所有地区的服务器',
    unlimitedDevices: '一个订阅链接，设备数量不限',
    apps: '适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用',
    support: { priority: '优先邮件支持', standard: '邮件支持' },
  },
};

const TRANSLATED: readonly TranslatedLocale[] = ['ru', 'fa', 'zh-CN'];

/** One seeded plan's texts in a language: `gb` is the data of the whole period. */
function textIn(language: SeedLanguage, tier: SeedTierKey, period: SeedPeriodKey, gb: number, prioritySupport: boolean): PlanText {
  const tierName = language.tier[tier];
  return {
    name: language.name(tierName, period),
    tier: tierName,
    features: [
      language.data(gb, period),
      language.everyLocation,
      language.unlimitedDevices,
      language.apps,
      prioritySupport ? language.support.priority : language.support.standard,
    ],
  };
}

/** A seeded plan's English texts and their translations. */
export function seedPlanTexts(
  tier: SeedTierKey,
  period: SeedPeriodKey,
  monthlyGb: number,
  prioritySupport: boolean,
): { text: PlanText; translations: PlanTranslations } {
  const gb = monthlyGb * SEED_PERIOD_MONTHS[period];
  const translations: PlanTranslations = {};
  for (const locale of TRANSLATED) {
    const { name, tier: tierName, features } = textIn(LANGUAGES[locale], tier, period, gb, prioritySupport);
    translations[locale] = { name, tier: tierName ?? undefined, features };
  }
  return { text: textIn(LANGUAGES.en, tier, period, gb, prioritySupport), translations };
}

/** The seeded tiers, in the order the pricing page shows them. */
export const SEED_TIERS = [
  { key: 'complete', monthlyGb: 1000, prioritySupport: true, perMonth: [1499, 799, 599], mostPopular: false },
  { key: 'plus', monthlyGb: 300, prioritySupport: true, perMonth: [1399, 699, 499], mostPopular: true },
  { key: 'basic', monthlyGb: 100, prioritySupport: false, perMonth: [1299, 599, 399], mostPopular: false },
] as const satisfies ReadonlyArray<{
  key: SeedTierKey;
  monthlyGb: number;
  prioritySupport: boolean;
  perMonth: readonly [number, number, number];
  mostPopular: boolean;
}>;

export const SEED_PERIODS = [
  { key: 'month', days: 30 },
  { key: 'year', days: 365 },
  { key: 'twoYears', days: 730 },
] as const satisfies ReadonlyArray<{ key: SeedPeriodKey; days: number }>;

/** The nine seeded plans' texts, English and translated, in seed order. */
export const SEED_PLAN_TEXTS = SEED_TIERS.flatMap((tier) =>
  SEED_PERIODS.map((period) => seedPlanTexts(tier.key, period.key, tier.monthlyGb, tier.prioritySupport)),
);

/** The trial a demo or a setup creates (not listed on the pricing page). */
export const TRIAL_PLAN_TEXTS: { text: PlanText; translations: PlanTranslations } = {
  text: { name: '3-Hour Trial', tier: null, features: ['300 MB of data for 3 hours', 'Servers in every location', 'No card needed'] },
  translations: {
    ru: { name: 'Пробный период на 3 часа', features: ['300 МБ трафика на 3 часа', 'Серверы во всех локациях', 'Карта не нужна'] },
    fa: { name: 'آزمایشی ۳ ساعته', features: ['۳۰۰ مگابایت داده برای ۳ ساعت', 'سرور در همهٔ موقعیت‌ها', 'بدون نیاز به کارت بانکی'] },
    'zh-CN': { name: '3 小时试用', features: ['3 小时内 300 MB 流量', '可使用所有地区的服务器', '无需银行卡'] },
  },
};
