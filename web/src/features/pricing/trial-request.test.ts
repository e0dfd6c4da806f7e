import { describe, expect, it } from 'vitest';
import { safeReturnPath } from '../../../../shared/return-path.js';
import { dashboardPathFor } from './plan-links';
import { TRIAL_DASHBOARD_PATH, TRIAL_PLAN_REQUEST, TRIAL_SIGN_IN_PATH } from './trial-request';

describe('the free-trial return path', () => {
  it('is the dashboard asking for the trial plan', () => {
    expect(TRIAL_DASHBOARD_PATH).toBe(dashboardPathFor(TRIAL_PLAN_REQUEST));
  });

  it('survives the sign-in page: /login reads it back as its return path', () => {
    const next = new URLSearchParams(TRIAL_SIGN_IN_PATH.split('?')[1]).get('next');
    expect(TRIAL_SIGN_IN_PATH.startsWith('/login?')).toBe(true);
    expect(safeReturnPath(next, '/dashboard')).toBe(TRIAL_DASHBOARD_PATH);
  });
});
