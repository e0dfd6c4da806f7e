/**
 * The trial as a requested plan, whatever its id: `/dashboard?plan=trial` claims the trial and opens
 * its setup dialog (or says the trial was used). Free-trial forms and buttons sign in with it as the
 * return path, so the intent survives the code step.
 *
 * Written out as literals (checked against dashboardPathFor in trial-request.test.ts), so this module imports
 * nothing; the build puts it in the small shared chunk with the formatters (web/vite.config.ts, `page-shared`),
 * so the landing page loads no file of its own for it (its JavaScript budget is tight).
 */
export const TRIAL_PLAN_REQUEST = 'trial';

/** Where a sign-in started from a free-trial form or button goes. */
export const TRIAL_DASHBOARD_PATH = '/dashboard?plan=trial';

/** The sign-in page for a free-trial button: back to TRIAL_DASHBOARD_PATH once signed in. */
export const TRIAL_SIGN_IN_PATH = '/login?next=%2Fdashboard%3Fplan%3Dtrial';
