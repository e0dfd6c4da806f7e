import type { SetupChecklist, SetupStep } from '../../../../shared/setup.js';
import type { Db } from '../../db/knex.js';
import type { SettingsRepo } from '../settings/index.js';

/**
 * What is left before the site can sell: a brand name and a support address of the operator's own
 * (the defaults are placeholders), an enabled panel server, and an active plan. Each is one small read.
 */
export function createSetupChecklist(deps: { db: Db; settings: SettingsRepo }) {
  async function exists(table: 'masterservers' | 'plans'): Promise<boolean> {
    return (await deps.db(table).select('id').where({ status: 'active' }).first()) !== undefined;
  }

  return {
    async get(): Promise<SetupChecklist> {
      const [stored, server, plan] = await Promise.all([deps.settings.getAppConfig(), exists('masterservers'), exists('plans')]);
      const steps: SetupStep[] = [
        { id: 'brand', label: 'Set your brand name', tab: 'settings', done: Boolean(stored.brand_name?.trim()) },
        { id: 'supportEmail', label: 'Set the support e-mail address customers write to', tab: 'settings', done: Boolean(stored.support_email?.trim()) },
        { id: 'server', label: 'Add a panel server (Remnawave, PasarGuard, Marzneshin or Marzban)', tab: 'servers', done: server },
        { id: 'plan', label: 'Put at least one plan on sale', tab: 'plans', done: plan },
      ];
      return { steps, complete: steps.every((step) => step.done) };
    },
  };
}

export type SetupChecklistService = ReturnType<typeof createSetupChecklist>;
