/**
 * The panel's configuration of an account: how it is asked for (in one format, passing the client's
 * User-Agent on), the key it is cached under in memory, and what a copy already cached says of the account.
 */
import { PanelError } from '../../panels/panel-driver.js';
import { fetchPanelSubscription } from '../../panels/subscription-fetch.js';
import { panelSubscriptionRequests } from '../../panels/subscription-url.js';
import { panelState, type BlockedState } from './account-state.js';
import type { FetchedCopy } from './stored-copies.js';
import type { SwrCache } from './subscription-cache.js';
import { parsePanelAnswer, type PanelCopy } from './subscription-content.js';
import type { SubscriptionLog } from './subscription-deps.js';
import type { PanelFormat } from './subscription-format.js';
import type { SubscriptionAccount } from './subscription.repo.js';

/** Headers of Remnawave's answer when its own HWID limit held the request back (an empty or placeholder body). */
const REFUSED_BY_PANEL_DEVICE_LIMIT = ['x-hwid-not-supported', 'x-hwid-max-devices-reached'];

export const cacheKey = (account: SubscriptionAccount, source: PanelFormat) => `${account.id}\n${source}\n${account.subscriptionUrl}`;

/** Asks the panel for the account's configuration in `source`; logs why and throws when it cannot be had. */
export async function fetchCopy(
  { timeoutMs, log }: { timeoutMs: number; log: SubscriptionLog },
  account: SubscriptionAccount,
  source: PanelFormat,
  userAgent: string,
): Promise<FetchedCopy> {
  try {
    const requests = panelSubscriptionRequests(account.panelKind, account.panelUrl, account.subscriptionUrl!, source, userAgent);
    const { response } = await fetchPanelSubscription(requests, { timeoutMs });
    // The panel's own device limit refused our request (it sends no device id): never a configuration.
    if (REFUSED_BY_PANEL_DEVICE_LIMIT.some((header) => response.headers.has(header))) {
      throw new PanelError('rejected', "The panel's own device limit refused the subscription: turn it off for this user on the panel");
    }
    const userinfo = response.headers.get('subscription-userinfo');
    const { copy, served } = parsePanelAnswer(source, response.text, userinfo);
    return { copy, served, userinfo };
  } catch (err) {
    log.warn(
      { accountId: account.id, panelKind: account.panelKind, format: source, err: err instanceof Error ? `${err.name}: ${err.message}` : String(err) },
      'subscription: could not fetch the configuration from the panel',
    );
    throw err;
  }
}

/** The panel state already known from a cached copy (for the page: no panel request is made for it). */
export function knownPanelState(content: SwrCache<PanelCopy>, account: SubscriptionAccount, now: Date): BlockedState | null {
  if (!account.subscriptionUrl) return null;
  for (const source of ['v2ray', 'sing-box', 'clash-meta', 'clash'] as const) {
    const copy = content.peek(cacheKey(account, source));
    if (copy) return panelState(copy, now);
  }
  return null;
}
