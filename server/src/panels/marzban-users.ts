import { PanelError, type NewPanelAccount, type PanelAccount } from './panel-driver.js';
import { detailOf, expectJsonObject, failureFor, type PanelResponse } from './panel-http.js';
import { adoptIfOurs } from './adopt.js';
import { ALL_INBOUNDS, NOT_ALLOWED, toAccount, USER_NOT_FOUND, userPath, type Inbounds } from './marzban-mapping.js';
import type { PanelSession } from './panel-session.js';

/**
 * The Marzban driver's requests that take more than one step: the panel's inbounds, a user read (also as
 * adoption reads it), a change to a user, and creating one (with the inbounds it needs, adopted back after an
 * unclear failure).
 */

export async function readInbounds(session: PanelSession): Promise<Inbounds> {
  const response = await session.request('/api/inbounds', { method: 'GET' });
  if (response.status !== 200) throw failureFor(response, 'Listing inbounds');
  return expectJsonObject(response, 'Listing inbounds') as Inbounds;
}

/**
 * The inbound tags of `serviceId`: every one for ALL_INBOUNDS, else one tag or several separated by commas (a tag
 * of the panel that has a comma in it is taken whole). Refused unless the panel has each.
 */
function tagsOf(all: Inbounds, serviceId: string): string[] {
  const tags = Object.values(all)
    .flat()
    .map((inbound) => inbound.tag);
  let wanted: string[];
  if (serviceId === ALL_INBOUNDS) wanted = tags;
  else if (tags.includes(serviceId)) wanted = [serviceId];
  else {
    wanted = serviceId
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
  }
  const missing = wanted.filter((tag) => !tags.includes(tag));
  if (wanted.length === 0 || missing.length > 0) {
    throw new PanelError('rejected', `The panel has no inbound ${missing.length > 0 ? missing.join(', ') : serviceId}; check the server's service ID`);
  }
  return wanted;
}

/** The `inbounds` and `proxies` a new user needs: both, always (panels.md). */
async function protocolsFor(session: PanelSession, serviceId: string) {
  const all = await readInbounds(session);
  const wanted = tagsOf(all, serviceId);
  const inbounds: Record<string, string[]> = {};
  for (const [protocol, list] of Object.entries(all)) {
    const tags = list.filter((inbound) => wanted.includes(inbound.tag)).map((inbound) => inbound.tag);
    if (tags.length > 0) inbounds[protocol] = tags;
  }
  const proxies = Object.fromEntries(Object.keys(inbounds).map((protocol) => [protocol, {}]));
  return { inbounds, proxies };
}

/**
 * The user in exactly the inbounds of `serviceId`: `PUT /api/user/{username}` with `proxies` and `inbounds`.
 * - `inbounds` names every protocol of the panel (`[]` for one left out): the panel changes the exclusions of the
 *   protocols named only, so a protocol left out would keep its old inbounds.
 * - `proxies` replaces the user's proxies, and a proxy sent as `{}` gets new credentials (ProxySettings.from_dict):
 *   each one the user has is sent back as it is (its configurations keep working, and one of a protocol left out
 *   stays, excluded from every inbound, for a later move back); a protocol it lacks is added as `{}`. One of a
 *   protocol the panel no longer serves is dropped (the panel would refuse it as disabled).
 * The subscription token is signed from the username, so the subscription URL stays valid.
 */
export async function setUserInbounds(session: PanelSession, username: string, serviceId: string): Promise<PanelAccount> {
  const all = await readInbounds(session);
  const wanted = tagsOf(all, serviceId);
  const user = (await readUser(session, username)) as { proxies?: Record<string, unknown> } | null;
  if (!user) throw new PanelError('rejected', `The user ${username} does not exist on the panel`, 404);
  const current = user.proxies ?? {};
  const inbounds: Record<string, string[]> = {};
  const proxies: Record<string, unknown> = {};
  for (const [protocol, list] of Object.entries(all)) {
    inbounds[protocol] = list.filter((inbound) => wanted.includes(inbound.tag)).map((inbound) => inbound.tag);
    if (inbounds[protocol].length > 0 || current[protocol]) proxies[protocol] = current[protocol] ?? {};
  }
  return update(session, username, { proxies, inbounds }, "Changing the user's inbounds");
}

export async function readUser(session: PanelSession, username: string): Promise<unknown | null> {
  const response = await session.request(userPath(username), { method: 'GET' });
  if (response.status === 200) return expectJsonObject(response, 'Reading the user');
  if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return null;
  throw failureFor(response, 'Reading the user');
}

/**
 * For adoptIfOurs after a 409: a non-sudo admin reading a user another admin owns gets 403 "You're not
 * allowed" — the name is taken, and not by us (no marker to compare).
 */
async function readForAdoption(session: PanelSession, username: string): Promise<unknown | null> {
  const response = await session.request(userPath(username), { method: 'GET' });
  if (response.status === 403 && detailOf(response) === NOT_ALLOWED) return { username, note: null };
  if (response.status === 200) return expectJsonObject(response, 'Reading the user');
  if (response.status === 404 && detailOf(response) === USER_NOT_FOUND) return null;
  throw failureFor(response, 'Reading the user');
}

export async function update(session: PanelSession, username: string, body: Record<string, unknown>, action: string): Promise<PanelAccount> {
  const response = await session.request(userPath(username), { method: 'PUT', json: body });
  if (response.status !== 200) throw failureFor(response, action);
  return toAccount(session, expectJsonObject(response, action));
}

export async function createUser(session: PanelSession, serviceId: string, input: NewPanelAccount): Promise<PanelAccount> {
  const body = {
    username: input.username,
    ...(await protocolsFor(session, serviceId)),
    expire: input.expiresAt ? Math.floor(input.expiresAt.getTime() / 1000) : 0,
    data_limit: input.dataLimitBytes ?? 0,
    data_limit_reset_strategy: 'no_reset',
    status: 'active',
    note: input.note,
  };
  const read = (username: string) => readForAdoption(session, username);
  let response: PanelResponse;
  try {
    response = await session.request('/api/user', { method: 'POST', json: body });
  } catch (err) {
    if (err instanceof PanelError && err.kind === 'timeout') return adoptIfOurs(input, err, read, (user) => toAccount(session, user));
    throw err;
  }
  if (response.status === 200) return toAccount(session, expectJsonObject(response, 'Creating the user'), true);
  if (response.status === 409 || response.status >= 500) return adoptIfOurs(input, response, read, (user) => toAccount(session, user));
  throw failureFor(response, 'Creating the user');
}
