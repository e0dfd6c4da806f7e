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

/** The `inbounds` and `proxies` a new user needs: both, always (panels.md). */
async function protocolsFor(session: PanelSession, serviceId: string) {
  const all = await readInbounds(session);
  const inbounds: Record<string, string[]> = {};
  for (const [protocol, list] of Object.entries(all)) {
    const tags = list.filter((inbound) => serviceId === ALL_INBOUNDS || inbound.tag === serviceId).map((inbound) => inbound.tag);
    if (tags.length > 0) inbounds[protocol] = tags;
  }
  if (Object.keys(inbounds).length === 0) throw new PanelError('rejected', `The panel has no inbound ${serviceId}; check the server's service ID`);
  const proxies = Object.fromEntries(Object.keys(inbounds).map((protocol) => [protocol, {}]));
  return { inbounds, proxies };
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
