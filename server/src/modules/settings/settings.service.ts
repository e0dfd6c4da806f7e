import { DEFAULT_BRAND_NAME, DEFAULT_SUPPORT_EMAIL, type PublicConfig } from '../../../../shared/config.js';
import type { SettingsRepo } from './settings.repo.js';
import type { createPaymentProvidersRepo } from '../billing/payment-providers.repo.js';

export interface AppSettings {
  trialPlanId: string | null;
  brandName: string;
  supportEmail: string;
}

export function createSettingsService(deps: {
  settings: SettingsRepo;
  paymentProviders: ReturnType<typeof createPaymentProvidersRepo>;
}) {
  async function getAppSettings(): Promise<AppSettings> {
    const stored = await deps.settings.getAppConfig();
    return {
      trialPlanId: stored.trial_plan_id ?? null,
      brandName: stored.brand_name?.trim() || DEFAULT_BRAND_NAME,
      supportEmail: stored.support_email?.trim() || DEFAULT_SUPPORT_EMAIL,
    };
  }

  return {
    getAppSettings,

    async getPublicConfig(): Promise<PublicConfig> {
      const [settings, card] = await Promise.all([getAppSettings(), deps.paymentProviders.findEnabledCardProvider()]);
      return {
        brandName: settings.brandName,
        supportEmail: settings.supportEmail,
        cardPaymentsEnabled: Boolean(card?.publishableKey),
        stripePublishableKey: card?.publishableKey ?? null,
      };
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
