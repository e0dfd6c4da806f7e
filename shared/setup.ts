/** `GET /api/admin/setup`: what an operator still has to do before the site is ready to sell. */
export type SetupStepId = 'brand' | 'supportEmail' | 'server' | 'plan' | 'payment' | 'trial';

export interface SetupStep {
  id: SetupStepId;
  label: string;
  /** Where the admin does it: an admin tab. */
  tab: 'settings' | 'servers' | 'plans' | 'payments';
  /** The Settings section it is in (`/admin/settings/<section>`), for a step done in Settings. */
  section?: 'general' | 'payments';
  done: boolean;
}

export interface SetupChecklist {
  steps: SetupStep[];
  complete: boolean;
}
