import { PanelError, type NewPanelAccount, type PanelAccount, type PanelConnection, type PanelService } from './panel-driver.js';
import { detailOf, expectJsonObject, failureFor, type PanelResponse } from './panel-http.js';
import { adoptIfOurs } from './adopt.js';
import { expiryFields, NOT_ALLOWED, serviceIdsOf, toAccount, USER_NOT_FOUND, usersPath, type MarzneshinUser } from './marzneshin-mapping.js';
import type { PanelSession } from './panel-session.js';
import { fetchPanelSubscription } from './subscription-fetch.js';
import { subscriptionUrlsToTry } from './subscription-route.js';
import { isPlaceholderLink, splitLinks } from './normalize.js';

/**
 * The Marzneshin driver's requests that take more than one step: a user read (through the list when the
 * panel will not say), its configuration links, and creating one (checked to keep its service, adopted back
 * after an unclear failure).
 */

/** One Marzneshin panel as the driver talks to it. */
export interface MarzneshinPanel {
  connection: PanelConnection;
  session: PanelSession;
  timeoutMs?: number;
}

/** The `links` format, through the panel URL first as /sub does (the public prefix may not be reachable from here). */
export async function fetchLinks(panel: MarzneshinPanel, subscriptionUrl: string): Promise<string[]> {
  const requests = subscriptionUrlsToTry('marzneshin', panel.connection.url, subscriptionUrl).map(({ url, via }) => ({
    url: `${url.replace(/\/+$/, '')}/links`,
    headers: {},
    via,
  }));
  const { response } = await fetchPanelSubscription(requests, { timeoutMs: panel.timeoutMs, answered: (status) => status !== 404 && status < 500 });
  if (response.status !== 200) throw failureFor(response, 'Reading the configuration links');
  return splitLinks(response.text).filter((link) => !isPlaceholderLink(link));
}

/** A 403 "You're not allowed" hides whether the user exists: the exact-match list call tells. */
export async function findViaList(panel: MarzneshinPanel, username: string): Promise<unknown | null> {
  const query = new URLSearchParams([
    ['username', username],
    ['username', username],
    ['page', '1'],
    ['size', '10'],
  ]);
  const response = await panel.session.request(`/api/users?${query.toString()}`, { method: 'GET' });
  if (response.status !== 200) throw failureFor(response, 'Listing users');
  const items = (expectJsonObject(response, 'Listing users').items ?? []) as Array<{ username?: string }>;
  return items.find((item) => item.username === username.toLowerCase()) ?? null;
}

export async function readUser(panel: MarzneshinPanel, username: string): Promise<unknown | null> {
  const response = await panel.session.request(usersPath(username), { method: 'GET' });
  if (response.status === 200) return expectJsonObject(response, 'Reading the user');
  if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return null;
  if (response.status === 403 && detailOf(response) === NOT_ALLOWED) return findViaList(panel, username);
  throw failureFor(response, 'Reading the user');
}

/** The ids of `wanted` that the panel's answer does not have: it drops unknown ones, and those the admin may not assign. */
const droppedServices = (wanted: number[], raw: MarzneshinUser): number[] => wanted.filter((id) => !raw.service_ids?.includes(id));

async function checkServiceKept(panel: MarzneshinPanel, account: PanelAccount, raw: MarzneshinUser, serviceIds: number[]): Promise<PanelAccount> {
  const dropped = droppedServices(serviceIds, raw);
  if (dropped.length === 0) return account;
  // Marzneshin silently drops unknown service ids, and those a non-sudo admin may not assign: the
  // user would miss configuration.
  await panel.session.request(usersPath(account.username), { method: 'DELETE' }).catch(() => undefined);
  throw new PanelError('rejected', `The panel dropped service ${dropped.join(', ')}: it has no such service, or this panel admin may not assign it`);
}

/** `GET /api/services`: a non-sudo admin without all_services_access sees only the services it may assign. */
export async function readServices(panel: MarzneshinPanel): Promise<PanelService[]> {
  const response = await panel.session.request('/api/services?page=1&size=100', { method: 'GET' });
  if (response.status !== 200) throw failureFor(response, 'Listing services');
  const items = (expectJsonObject(response, 'Listing services').items ?? []) as Array<{ id: number; name: string }>;
  return items.map((service) => ({ id: String(service.id), name: service.name }));
}

/**
 * The user in exactly the services of `serviceId`: `PUT /api/users/{username}` with `service_ids` (its key, and so
 * its subscription URL, stays). The panel would drop an unknown id without a word, so the services are checked
 * first, and the answer after.
 */
export async function setUserServices(panel: MarzneshinPanel, username: string, serviceId: string): Promise<PanelAccount> {
  const serviceIds = serviceIdsOf(serviceId);
  const known = new Set((await readServices(panel)).map((service) => service.id));
  const missing = serviceIds.filter((id) => !known.has(String(id)));
  if (missing.length > 0) {
    throw new PanelError('rejected', `The panel has no service ${missing.join(', ')} (or this panel admin may not assign it); pick the services from its list`);
  }
  // The PUT bug (panels.md): without `usage_duration: null` (or an expire strategy) the panel answers 500.
  const body = { username, usage_duration: null, service_ids: serviceIds };
  const response = await panel.session.request(usersPath(username), { method: 'PUT', json: body });
  if (response.status !== 200) throw failureFor(response, "Changing the user's services");
  const raw = expectJsonObject(response, "Changing the user's services") as unknown as MarzneshinUser;
  const dropped = droppedServices(serviceIds, raw);
  if (dropped.length > 0) {
    const now = raw.service_ids?.length ? raw.service_ids.join(', ') : 'none';
    throw new PanelError(
      'rejected',
      `The panel dropped service ${dropped.join(', ')} (this panel admin may not assign it); the user's services are now: ${now}`,
    );
  }
  return toAccount(panel.session, raw);
}

export async function createUser(panel: MarzneshinPanel, input: NewPanelAccount): Promise<PanelAccount> {
  const { connection, session } = panel;
  const serviceIds = serviceIdsOf(input.serviceId ?? connection.serviceId);
  const body = {
    username: input.username,
    service_ids: serviceIds,
    ...expiryFields(input.expiresAt),
    data_limit: input.dataLimitBytes ?? null,
    data_limit_reset_strategy: 'no_reset',
    note: input.note,
  };
  const read = (username: string) => readUser(panel, username);
  let response: PanelResponse;
  try {
    response = await session.request('/api/users', { method: 'POST', json: body });
  } catch (err) {
    if (err instanceof PanelError && err.kind === 'timeout') return adoptIfOurs(input, err, read, (user) => toAccount(session, user));
    throw err;
  }
  if (response.status === 200) {
    const raw = expectJsonObject(response, 'Creating the user') as unknown as MarzneshinUser;
    return checkServiceKept(panel, toAccount(session, raw), raw, serviceIds);
  }
  if (response.status === 409 || response.status >= 500) return adoptIfOurs(input, response, read, (user) => toAccount(session, user));
  throw failureFor(response, 'Creating the user');
}
