import type { PlanChangeDowngrade } from '../../../../shared/plan-changes.js';
import type { Db } from '../../db/knex.js';
import { parseJson, toJson } from '../../db/values.js';

export const APP_CONFIG_ID = 'app_config';

/** The `app_config` row's value as stored (snake_case keys, as the spec names them). */
export interface StoredAppConfig {
  trial_plan_id?: string | null;
  brand_name?: string;
  support_email?: string;
  locations_claim?: string;
  protection_features?: boolean;
  /** Whether the public pages promise the free trial (absent: yes, while a trial plan is on sale). */
  trial_promise?: boolean;
  renewal_grace_days?: number;
  renewal_reminders?: boolean;
  plan_change_downgrade?: PlanChangeDowngrade;
  retention_days?: number;
  audit_retention_days?: number;
  deviceless_clients?: string;
  deviceless_window_hours?: number;
  /** Lower-case ISO code (shared/currencies.ts); absent: US dollars, as every store sold in before. */
  currency?: string;
  /** Top-ups of the wallet: on or off, and their limits in minor units of `currency` (the store's when they were set). */
  wallet_top_ups?: { enabled?: boolean; min?: number; max?: number; currency?: string };
  /** `{ ru: { locationsClaim }, … }` (shared/app-settings.ts SiteContentTranslations); absent: English everywhere. */
  site_content_translations?: Record<string, { locationsClaim?: unknown } | undefined>;
  /** shared/subscription-headers.ts SubscriptionHeaderSettings as saved (camelCase inside); absent: the defaults. */
  subscription_headers?: Record<string, unknown>;
  /** shared/subscription-domains.ts SubscriptionDomain[]; absent: none (links on PUBLIC_URL). */
  subscription_domains?: unknown;
  /** Staff passkeys (modules/passkeys): required of every staff member; a refund over this (minor units) asks again. */
  staff_passkeys_required?: boolean;
  refund_step_up_above?: number;
  /** shared/sign-in-limits.ts SignInLimits as saved (camelCase inside); absent: the defaults. */
  sign_in_limits?: { codesPerEmail?: unknown; codesPerNetwork?: unknown } | null;
}

export function createSettingsRepo(db: Db) {
  return {
    async getAppConfig(): Promise<StoredAppConfig> {
      const row = await db('settings').select('value').where({ id: APP_CONFIG_ID }).first();
      return parseJson<StoredAppConfig>(row?.value, {});
    },

    async saveAppConfig(value: StoredAppConfig, now: Date): Promise<void> {
      await db('settings')
        .insert({ id: APP_CONFIG_ID, value: toJson(value), updated_at: now })
        .onConflict('id')
        .merge(['value', 'updated_at']);
    },
  };
}

export type SettingsRepo = ReturnType<typeof createSettingsRepo>;
