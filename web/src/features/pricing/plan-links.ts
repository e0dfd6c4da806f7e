/** Where a plan's 'Get' button leads: the dashboard with that plan's payment dialog open. */
export function dashboardPathFor(planId: string): string {
  return `/dashboard?${new URLSearchParams({ plan: planId })}`;
}

/** Signed in: straight to the dashboard. Signed out: sign in first, then the dashboard. */
export function getPlanHref(planId: string, signedIn: boolean): string {
  const target = dashboardPathFor(planId);
  return signedIn ? target : `/login?${new URLSearchParams({ next: target })}`;
}
