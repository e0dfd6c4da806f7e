import { PanelError, type PanelDriver } from './panel-driver.js';
import { fetchPanelSubscription, PanelSubscriptionError } from './subscription-fetch.js';
import { panelSubscriptionRequests } from './subscription-url.js';

/** How many of the panel's users are read to find one whose subscription to try. */
const SAMPLE_SIZE = 20;

/**
 * Part of the connection test: fetches one of the panel's users' subscriptions the way `/sub` will (the
 * panel URL, then the public address), and fails when neither answers, saying what each did. An answer
 * of the panel's own device check (403) counts: the route is there. A panel without users yet, or whose
 * users this admin may not list, cannot be checked this way and passes.
 */
export async function checkSubscriptionRoute(driver: PanelDriver, panelUrl: string, timeoutMs?: number): Promise<void> {
  const listed = await driver.listAccounts({ page: 1, size: SAMPLE_SIZE }).catch(() => null);
  const sample = listed?.accounts.find((account) => account.status === 'active') ?? listed?.accounts[0];
  if (!sample?.subscriptionUrl) return;
  const requests = panelSubscriptionRequests(driver.kind, panelUrl, sample.subscriptionUrl, 'v2ray', '');
  try {
    await fetchPanelSubscription(requests, { timeoutMs, answered: (status) => status === 200 || status === 403 });
  } catch (err) {
    if (!(err instanceof PanelSubscriptionError)) throw err;
    // Origins only: the path holds a customer's subscription token.
    const tried = err.attempts
      .map(
        (attempt) =>
          `${attempt.via === 'panel' ? 'through the panel URL' : 'the public address'} ${new URL(attempt.url).origin} ${attempt.problem.replace(/^The panel /, '')}`,
      )
      .join('; ');
    throw new PanelError('wrong_url', `Subscriptions cannot be fetched from this panel, so every customer's link would fail: ${tried}`);
  }
}
