/** `GET /api/admin/setup`: what an operator still has to do before the site is ready to sell. */
export type SetupStepId = 'brand' | 'supportEmail' | 'server' | 'plan';

export interface SetupStep {
  id: SetupStepId;
  label: string;
  /** Where the admin does it: an admin tab. */
  tab: 'settings' | 'servers' | 'plans';
  done: boolean;
}

export interface SetupChecklist {
  steps: SetupStep[];
  complete: boolean;
}
