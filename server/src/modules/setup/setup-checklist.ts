import type { SetupChecklist, SetupStep } from '../../../../shared/setup.js';
import type { PublicConfig } from '../../../../shared/config.js';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import type { Db } from '../../db/knex.js';
import type { SettingsRepo } from '../settings/index.js';

/** The payment methods a provider takes (the wallet and Telegram Stars are no way to take a first payment on the site). */
const takesPayment = (method: PublicConfig['paymentMethods'][number]) => method !== 'wallet' && method !== 'stars';

/**
 * What is left before the site can sell: a brand name and a support address of the operator's own
 * (the defaults are placeholders), an enabled panel server, an active plan, a way to take payment (any
 * payment provider on: Stripe, BTCPay, YooKassa, Crypto Pay), and a trial plan on sale or the trial promise
 * switched off (the public pages promise a free trial only while there is one). Each is one small read.
 */
export function createSetupChecklist(deps: {
  db: Db;
  settings: SettingsRepo;
  config: { getPublicConfig(): Promise<PublicConfig>; getAppSettings(): Promise<Pick<AdminSettings, 'trialPromise'>> };
}) {
  async function exists(table: 'masterservers' | 'plans'): Promise<boolean> {
    return (await deps.db(table).select('id').where({ status: 'active' }).first()) !== undefined;
  }

  return {
    async get(): Promise<SetupChecklist> {
      const [stored, server, plan, config, settings] = await Promise.all([
        deps.settings.getAppConfig(),
        exists('masterservers'),
        exists('plans'),
        deps.config.getPublicConfig(),
        deps.config.getAppSettings(),
      ]);
      const steps: SetupStep[] = [
        { id: 'brand', label: 'Set your brand name', tab: 'settings', section: 'general', done: Boolean(stored.brand_name?.trim()) },
        {
          id: 'supportEmail',
          label: 'Set the support e-mail address customers write to',
          tab: 'settings',
          section: 'general',
          done: Boolean(stored.support_email?.trim()),
        },
        { id: 'server', label: 'Add a panel server (Remnawave, PasarGuard, Marzneshin or Marzban)', tab: 'servers', done: server },
        { id: 'plan', label: 'Put at least one plan on sale', tab: 'plans', done: plan },
        {
          id: 'payment',
          label: 'Turn on a payment method (Stripe, BTCPay, YooKassa or Crypto Pay)',
          // The providers' keys are in Settings (the Payments tab lists what was paid).
          tab: 'settings',
          section: 'payments',
          done: config.paymentMethods.some(takesPayment),
        },
        {
          id: 'trial',
          label: 'Put a trial plan on sale, or switch the free-trial promise off',
          tab: 'settings',
          section: 'general',
          done: config.trialOffered || !settings.trialPromise,
        },
      ];
      return { steps, complete: steps.every((step) => step.done) };
    },
  };
}

export type SetupChecklistService = ReturnType<typeof createSetupChecklist>;
