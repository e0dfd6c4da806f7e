/** Where a plan's 'Get' button leads: the dashboard with that plan's payment dialog open. */
export function dashboardPathFor(planId: string): string {
  return `/dashboard?${new URLSearchParams({ plan: planId })}`;
}

/** Signed in: straight to the dashboard. Signed out: sign in first, then the dashboard. */
export function getPlanHref(planId: string, signedIn: boolean): string {
  const target = dashboardPathFor(planId);
  return signedIn ? target : `/login?${new URLSearchParams({ next: target })}`;
}

/**
 * The trial as a requested plan, whatever its id: `/dashboard?plan=trial` claims the trial and opens
 * its setup dialog (the target of the landing page's and download pages' trial forms).
 */
export const TRIAL_PLAN_REQUEST = 'trial';

/** Where a sign-in started from a free-trial form or button goes: the dashboard, claiming the trial. */
export const TRIAL_DASHBOARD_PATH = dashboardPathFor(TRIAL_PLAN_REQUEST);

/** The sign-in page for a free-trial button, the e-mail filled in when the visitor gave it. */
export function trialSignInHref(email?: string): string {
  return `/login?${new URLSearchParams({ ...(email ? { email } : {}), next: TRIAL_DASHBOARD_PATH })}`;
}
