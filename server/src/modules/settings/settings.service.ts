import { DEFAULT_BRAND_NAME, DEFAULT_LOCATIONS_CLAIM, defaultSupportEmail, type PublicConfig } from '../../../../shared/config.js';
import {
  DEVICELESS_CLIENTS_DEFAULT,
  RENEWAL_DEFAULTS,
  RETENTION_DEFAULTS,
  type AdminSettings,
  type SiteContentTranslations,
  type UpdateSettingsBody,
} from '../../../../shared/app-settings.js';
import { currencyDecimals, DEFAULT_CURRENCY, isSupportedCurrency } from '../../../../shared/currencies.js';
import { TOP_UP_DEFAULTS } from '../../../../shared/wallet.js';
import { PLAN_CHANGE_DOWNGRADE_DEFAULT } from '../../../../shared/plan-changes.js';
import { subscriptionHeadersFrom } from '../../../../shared/subscription-headers.js';
import { activeSubscriptionHost, subscriptionDomainsFrom } from '../../../../shared/subscription-domains.js';
import { DEVICELESS_CLIENT_POLICIES, DEVICELESS_WINDOW, type DevicelessClientPolicy } from '../../../../shared/devices.js';
import { validationFailed } from '../../errors.js';
import { toJsonAnswer, type JsonAnswer } from '../../lib/json-answer.js';
import type { SettingsRepo, StoredAppConfig } from './settings.repo.js';
import { TRANSLATED_LOCALES } from '../../../../shared/plan-translations.js';
import type { PaymentMethod } from '../../../../shared/billing-schemas.js';
import type { SignInLimits } from '../../../../shared/sign-in-limits.js';

export type AppSettings = AdminSettings;

const isDevicelessPolicy = (value: unknown): value is DevicelessClientPolicy => (DEVICELESS_CLIENT_POLICIES as readonly unknown[]).includes(value);

/** The stored translations, read defensively: only the site's languages, only a text claim. */
function toSiteContentTranslations(stored: StoredAppConfig['site_content_translations']): SiteContentTranslations {
  const translations: SiteContentTranslations = {};
  for (const locale of TRANSLATED_LOCALES) {
    const claim = stored?.[locale]?.locationsClaim;
    if (typeof claim === 'string' && claim.trim() !== '') translations[locale] = { locationsClaim: claim.trim() };
  }
  return translations;
}

/** The wallet's top-up limits: as set, while the store still sells in the currency they were set in; else 5 and 1,000 of its major unit. */
function topUpsOf(stored: StoredAppConfig['wallet_top_ups'], currency: string): AdminSettings['walletTopUps'] {
  const unit = 10 ** currencyDecimals(currency);
  const defaults = { min: TOP_UP_DEFAULTS.minMajor * unit, max: TOP_UP_DEFAULTS.maxMajor * unit };
  const limits = stored?.currency === currency && stored.min && stored.max ? { min: stored.min, max: stored.max } : defaults;
  return { enabled: stored?.enabled ?? true, ...limits };
}

/** The sign-in limits as saved, read defensively: both whole numbers, or none (the defaults). */
function signInLimitsOf(stored: StoredAppConfig['sign_in_limits']): SignInLimits | null {
  const { codesPerEmail, codesPerNetwork } = stored ?? {};
  return Number.isInteger(codesPerEmail) && Number.isInteger(codesPerNetwork)
    ? { codesPerEmail: codesPerEmail as number, codesPerNetwork: codesPerNetwork as number }
    : null;
}

/** The store's currency as saved (the default while none, or one no longer supported, is). */
export function storeCurrencyOf(stored: { currency?: string | null }): string {
  return stored.currency && isSupportedCurrency(stored.currency) ? stored.currency : DEFAULT_CURRENCY;
}

/** Whether card payments can start, and the key the browser's Stripe.js uses (what the billing module's card settings tell). */
export interface CardPublicState {
  ready: boolean;
  publishableKey: string | null;
}

/**
 * What the public settings read from the payment providers (built before settings): the card provider's state, and
 * the methods a customer can pay with in a currency. Settings names what it uses; billing's services have it.
 */
export interface PaymentsOnOffer {
  card: { getPublicState(): Promise<CardPublicState> };
  payments: { availableMethods(currency: string): Promise<PaymentMethod[]> };
}

export function createSettingsService(deps: {
  settings: SettingsRepo;
  /** Whether card payments can start, and the publishable key (settings, or the environment). */
  cardPublicState(): Promise<CardPublicState>;
  /** The payment methods a customer can use now in the store's currency, in the order they are offered. */
  paymentMethods(currency: string): Promise<PaymentMethod[]>;
  planExists(id: string): Promise<boolean>;
  /** Whether a trial plan is on sale: an active plan marked as the trial, or the one settings name (`trialPlanId`). */
  trialOnSale(trialPlanId: string | null): Promise<boolean>;
  /** The site's address: the support e-mail defaults to `support@` its host. */
  publicUrl: URL;
  /** Subscription links are now issued on `host` (a domain was marked blocked, added or removed). */
  subscriptionLinksMoved?: (host: string, now: Date) => Promise<void>;
}) {
  async function getAppSettings(): Promise<AppSettings> {
    const stored = await deps.settings.getAppConfig();
    const currency = storeCurrencyOf(stored);
    return {
      trialPlanId: stored.trial_plan_id ?? null,
      trialPromise: stored.trial_promise ?? true,
      brandName: stored.brand_name?.trim() || DEFAULT_BRAND_NAME,
      supportEmail: stored.support_email?.trim() || defaultSupportEmail(deps.publicUrl),
      supportEmailSet: Boolean(stored.support_email?.trim()),
      locationsClaim: stored.locations_claim?.trim() || DEFAULT_LOCATIONS_CLAIM,
      protectionFeatures: stored.protection_features ?? true,
      renewalGraceDays: stored.renewal_grace_days ?? RENEWAL_DEFAULTS.graceDays,
      renewalReminders: stored.renewal_reminders ?? RENEWAL_DEFAULTS.reminders,
      planChangeDowngrade: stored.plan_change_downgrade ?? PLAN_CHANGE_DOWNGRADE_DEFAULT,
      retentionDays: stored.retention_days ?? RETENTION_DEFAULTS.days,
      auditRetentionDays: stored.audit_retention_days ?? RETENTION_DEFAULTS.auditDays,
      devicelessClients: isDevicelessPolicy(stored.deviceless_clients) ? stored.deviceless_clients : DEVICELESS_CLIENTS_DEFAULT,
      devicelessWindowHours: stored.deviceless_window_hours ?? DEVICELESS_WINDOW.defaultHours,
      currency,
      siteContentTranslations: toSiteContentTranslations(stored.site_content_translations),
      walletTopUps: topUpsOf(stored.wallet_top_ups, currency),
      subscriptionHeaders: subscriptionHeadersFrom(stored.subscription_headers),
      subscriptionDomains: subscriptionDomainsFrom(stored.subscription_domains),
      staffPasskeysRequired: stored.staff_passkeys_required ?? false,
      refundStepUpAbove: stored.refund_step_up_above ?? 0,
      signInLimits: signInLimitsOf(stored.sign_in_limits),
    };
  }

  /** The settings form: an address never saved is empty there (the site shows `support@<host>` meanwhile). */
  async function getAdminSettings(): Promise<AdminSettings> {
    const settings = await getAppSettings();
    return settings.supportEmailSet ? settings : { ...settings, supportEmail: '' };
  }

  async function getPublicConfig(): Promise<PublicConfig> {
    const [settings, card] = await Promise.all([getAppSettings(), deps.cardPublicState()]);
    const [paymentMethods, trialOnSale] = await Promise.all([deps.paymentMethods(settings.currency), deps.trialOnSale(settings.trialPlanId)]);
    return {
      brandName: settings.brandName,
      supportEmail: settings.supportEmail,
      locationsClaim: settings.locationsClaim,
      protectionFeatures: settings.protectionFeatures,
      trialOffered: settings.trialPromise && trialOnSale,
      cardPaymentsEnabled: card.ready,
      paymentMethods,
      stripePublishableKey: card.publishableKey,
      currency: settings.currency,
      siteContentTranslations: settings.siteContentTranslations,
    };
  }

  return {
    getAppSettings,

    getAdminSettings,

    /** Saves the given fields; a trial plan must exist. */
    async updateSettings(patch: UpdateSettingsBody, now: Date): Promise<AdminSettings> {
      if (patch.trialPlanId && !(await deps.planExists(patch.trialPlanId))) {
        throw validationFailed({ trialPlanId: 'Plan not found' }, 'Plan not found');
      }
      const stored = await deps.settings.getAppConfig();
      await deps.settings.saveAppConfig(
        {
          ...stored,
          ...(patch.trialPlanId !== undefined ? { trial_plan_id: patch.trialPlanId } : {}),
          ...(patch.brandName !== undefined ? { brand_name: patch.brandName } : {}),
          ...(patch.supportEmail !== undefined ? { support_email: patch.supportEmail } : {}),
          ...(patch.locationsClaim !== undefined ? { locations_claim: patch.locationsClaim } : {}),
          ...(patch.protectionFeatures !== undefined ? { protection_features: patch.protectionFeatures } : {}),
          ...(patch.trialPromise !== undefined ? { trial_promise: patch.trialPromise } : {}),
          ...(patch.renewalGraceDays !== undefined ? { renewal_grace_days: patch.renewalGraceDays } : {}),
          ...(patch.renewalReminders !== undefined ? { renewal_reminders: patch.renewalReminders } : {}),
          ...(patch.planChangeDowngrade !== undefined ? { plan_change_downgrade: patch.planChangeDowngrade } : {}),
          ...(patch.retentionDays !== undefined ? { retention_days: patch.retentionDays } : {}),
          ...(patch.auditRetentionDays !== undefined ? { audit_retention_days: patch.auditRetentionDays } : {}),
          ...(patch.devicelessClients !== undefined ? { deviceless_clients: patch.devicelessClients } : {}),
          ...(patch.devicelessWindowHours !== undefined ? { deviceless_window_hours: patch.devicelessWindowHours } : {}),
          ...(patch.currency !== undefined ? { currency: patch.currency } : {}),
          ...(patch.siteContentTranslations !== undefined ? { site_content_translations: patch.siteContentTranslations } : {}),
          // The fields sent replace the saved ones; the others stay.
          ...(patch.subscriptionHeaders !== undefined
            ? { subscription_headers: { ...subscriptionHeadersFrom(stored.subscription_headers), ...patch.subscriptionHeaders } }
            : {}),
          ...(patch.subscriptionDomains !== undefined ? { subscription_domains: patch.subscriptionDomains } : {}),
          ...(patch.staffPasskeysRequired !== undefined ? { staff_passkeys_required: patch.staffPasskeysRequired } : {}),
          ...(patch.refundStepUpAbove !== undefined ? { refund_step_up_above: patch.refundStepUpAbove } : {}),
          ...(patch.signInLimits !== undefined ? { sign_in_limits: patch.signInLimits } : {}),
          // Limits are kept with the currency they are in (a currency changed in the same save: the new one).
          ...(patch.walletTopUps !== undefined
            ? { wallet_top_ups: { ...patch.walletTopUps, currency: patch.currency ?? (await getAppSettings()).currency } }
            : {}),
        },
        now,
      );
      // Links are now issued on another domain: every customer is told their new link.
      if (patch.subscriptionDomains !== undefined) {
        const before = activeSubscriptionHost(subscriptionDomainsFrom(stored.subscription_domains), deps.publicUrl);
        const after = activeSubscriptionHost(patch.subscriptionDomains, deps.publicUrl);
        if (before !== after) await deps.subscriptionLinksMoved?.(after, now);
      }
      return getAdminSettings();
    },

    getPublicConfig,

    /** The public config serialised (read every time here; createCachedSettings keeps it). */
    async getPublicConfigAnswer(): Promise<JsonAnswer> {
      return toJsonAnswer(await getPublicConfig());
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
