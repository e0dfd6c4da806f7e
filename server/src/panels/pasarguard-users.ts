import { PanelError, type NewPanelAccount, type PanelAccount, type PanelConnection } from './panel-driver.js';
import { describeFailure, detailOf, expectJsonObject, failureFor, type PanelResponse } from './panel-http.js';
import { adoptIfOurs } from './adopt.js';
import { groupProblem, readGroups, requireGroupIds } from './pasarguard-groups.js';
import { expireField, failure, pasarguardSubscriptionFormatUrl, toAccount, USER_NOT_FOUND, userPath } from './pasarguard-mapping.js';
import type { PanelSession } from './panel-session.js';
import { fetchPanelSubscription } from './subscription-fetch.js';
import { subscriptionUrlsToTry } from './subscription-route.js';
import { isPlaceholderLink, splitLinks } from './normalize.js';

/**
 * The PasarGuard driver's requests that take more than one step: a user read, its configuration links, a change
 * to it, and creating one (its groups checked first, adopted back after an unclear failure).
 */

const GROUP_NOT_FOUND = 'Group not found';

/** One PasarGuard panel as the driver talks to it. */
export interface PasarguardPanel {
  connection: PanelConnection;
  session: PanelSession;
  timeoutMs?: number;
}

export async function readUser(panel: PasarguardPanel, username: string): Promise<unknown | null> {
  const response = await panel.session.request(userPath(username), { method: 'GET' });
  if (response.status === 200) return expectJsonObject(response, 'Reading the user');
  if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return null;
  throw failure(response, 'Reading the user');
}

/**
 * The links of the `links_base64` format (the one /sub serves too), through the panel URL first as
 * /sub does; the panel's placeholders dropped.
 */
export async function fetchLinks(panel: PasarguardPanel, subscriptionUrl: string): Promise<string[]> {
  const requests = subscriptionUrlsToTry('pasarguard', panel.connection.url, subscriptionUrl).map(({ url, via }) => ({
    url: pasarguardSubscriptionFormatUrl(url, 'v2ray'),
    headers: {},
    via,
  }));
  const { response } = await fetchPanelSubscription(requests, { timeoutMs: panel.timeoutMs, answered: (status) => status === 200 || status === 403 });
  // A 403 here is the panel's device check ("HWID header required", "Device limit reached") on a user
  // made without `hwid_limit: 0`, not our credentials.
  if (response.status === 403) throw new PanelError('rejected', `Reading the configuration links: ${describeFailure(response)}`, 403);
  if (response.status !== 200) throw failureFor(response, 'Reading the configuration links');
  const body = response.text.trim();
  const text = body.includes('://') ? body : Buffer.from(body, 'base64').toString('utf8');
  return splitLinks(text).filter((link) => !isPlaceholderLink(link));
}

/**
 * Refuses before the POST what the panel would refuse (unknown group) or accept uselessly (disabled group).
 * Whether the groups' state could be read: without `groups.read` the panel gives names only.
 */
async function checkGroups(panel: PasarguardPanel, ids: number[]): Promise<boolean> {
  const groups = await readGroups(panel.session);
  const problem = groups && groupProblem(groups, ids);
  if (problem) throw new PanelError('rejected', problem);
  return groups !== null && groups.every((group) => group.disabled !== null);
}

/**
 * Where the groups' state could not be read, a new user whose subscription has no configuration was put
 * only in disabled groups (or groups without inbounds): it is deleted again, and refused with why.
 */
async function requireConfiguration(panel: PasarguardPanel, account: PanelAccount, groupIds: number[]): Promise<PanelAccount> {
  const links = await fetchLinks(panel, account.subscriptionUrl).catch(() => null);
  if (links === null || links.length > 0) return account;
  await panel.session.request(userPath(account.username), { method: 'DELETE' }).catch(() => undefined);
  throw new PanelError(
    'rejected',
    `The panel gave the new user no configuration: its group ${groupIds.join(', ')} may be disabled or have no inbounds (this panel admin cannot see groups' state; grant it groups.read to have it checked before)`,
  );
}

/**
 * After a 409, a 5xx or a timeout the user may exist: read it back and adopt it only with our marker.
 * A 409 for a user this admin cannot read (another admin's, for an "own"-scoped role) is a conflict.
 */
async function adopt(panel: PasarguardPanel, input: NewPanelAccount, cause: PanelError | PanelResponse): Promise<PanelAccount> {
  const existing = await readUser(panel, input.username);
  if (!existing && !(cause instanceof PanelError) && cause.status === 409) {
    throw new PanelError('conflict', `The username ${input.username} is already taken on the panel`, 409);
  }
  return adoptIfOurs(
    input,
    cause,
    async () => existing,
    (user) => toAccount(panel.session, user),
  );
}

export async function update(panel: PasarguardPanel, path: string, body: Record<string, unknown>, action: string): Promise<PanelAccount> {
  const response = await panel.session.request(path, { method: 'PUT', json: body });
  if (response.status !== 200) throw failure(response, action);
  return toAccount(panel.session, expectJsonObject(response, action));
}

/** The new user in the groups of its own `serviceId`, else the connection's. */
export async function createUser(panel: PasarguardPanel, input: NewPanelAccount): Promise<PanelAccount> {
  const groupIds = requireGroupIds(input.serviceId ?? panel.connection.serviceId);
  const stateKnown = await checkGroups(panel, groupIds);
  const body = {
    username: input.username,
    group_ids: groupIds,
    expire: expireField(input.expiresAt),
    data_limit: input.dataLimitBytes ?? 0,
    data_limit_reset_strategy: 'no_reset',
    status: 'active',
    note: input.note,
    // 0 turns the panel's device (HWID) limit off for this user; null would fall back to the
    // panel's default limit, and the storefront enforces device limits itself.
    hwid_limit: 0,
  };
  let response: PanelResponse;
  try {
    response = await panel.session.request('/api/user', { method: 'POST', json: body });
  } catch (err) {
    if (err instanceof PanelError && err.kind === 'timeout') return adopt(panel, input, err);
    throw err;
  }
  if (response.status === 201 || response.status === 200) {
    const created = toAccount(panel.session, expectJsonObject(response, 'Creating the user'));
    return stateKnown ? created : requireConfiguration(panel, created, groupIds);
  }
  if (response.status === 409 || response.status >= 500) return adopt(panel, input, response);
  if (response.status === 404 && detailOf(response) === GROUP_NOT_FOUND) throw groupNotFound(groupIds);
  throw failure(response, 'Creating the user');
}

const groupNotFound = (groupIds: number[]) =>
  new PanelError('rejected', `The panel has no group among ${groupIds.join(', ')} (Group not found); check the server's service ID`, 404);

/**
 * The user in exactly the groups of `serviceId`: `PUT /api/user/{username}` with `group_ids` (only the fields sent
 * change; the proxy settings and the subscription token stay). The groups are checked first; where their state could
 * not be read and the user is left with no configuration (a disabled group), it is put back in its old groups.
 */
export async function setUserGroups(panel: PasarguardPanel, username: string, serviceId: string): Promise<PanelAccount> {
  const groupIds = requireGroupIds(serviceId);
  const stateKnown = await checkGroups(panel, groupIds);
  const before = stateKnown ? null : ((await readUser(panel, username)) as { group_ids?: unknown } | null);
  const response = await panel.session.request(userPath(username), { method: 'PUT', json: { group_ids: groupIds } });
  if (response.status === 404 && detailOf(response) === GROUP_NOT_FOUND) throw groupNotFound(groupIds);
  if (response.status !== 200) throw failure(response, "Changing the user's groups");
  const moved = toAccount(panel.session, expectJsonObject(response, "Changing the user's groups"));
  if (stateKnown) return moved;
  const links = await fetchLinks(panel, moved.subscriptionUrl).catch(() => null);
  if (links === null || links.length > 0) return moved;
  if (Array.isArray(before?.group_ids))
    await update(panel, userPath(username), { group_ids: before.group_ids }, "Restoring the user's groups").catch(() => undefined);
  throw new PanelError(
    'rejected',
    `The panel gave the user no configuration in group ${groupIds.join(', ')}: it may be disabled or have no inbounds, so the user was left in its old groups (this panel admin cannot see groups' state; grant it groups.read to have it checked before)`,
  );
}
