import { PanelError, type NewPanelAccount, type PanelAccount, type PanelService } from './panel-driver.js';
import { expectJsonObject, type PanelResponse } from './panel-http.js';
import { adoptIfOurs } from './adopt.js';
import {
  DROPPED_CONNECTION,
  errorCodeOf,
  isDroppedConnection,
  isForbiddenResource,
  isRouteNotFound,
  remnawaveFailure,
  type RemnawaveClient,
  type RemnawaveRequest,
} from './remnawave-http.js';
import { asRemnawaveUser, expireAtFor, isRemarkOnlyLink, squadUuids, toAccount, type RemnawaveUser } from './remnawave-user.js';

/**
 * The Remnawave driver's requests that take more than one step: a user read by username (and its numeric id for
 * the routes that want it), the internal squads, the checks of the panel's version and the token's scopes, the
 * configuration links, the user actions, and creating a user (adopted back after an unclear failure).
 */

/** Error codes of libs/contract/constants/errors/errors.ts that the driver acts on. */
const USERNAME_TAKEN = 'A019';
const CREATE_USER_ERROR = 'A018';
export const USER_NOT_FOUND = 'A025';
const NOT_FOUND_BY_UNIQUE_FIELDS = 'A063';
export const ALREADY_DISABLED = 'A029';
export const ALREADY_ENABLED = 'A030';
/** CreateUserCommand's username: what the panel can hold (a `.` or `..` would also change the path it is read by). */
const USERNAME = /^[a-zA-Z0-9_-]{3,36}$/;
const USERNAME_RULE = 'Remnawave usernames are 3 to 36 letters, digits, underscores and dashes';

/** One request to the panel; a connection the panel drops is `unreachable`. */
export type RemnawaveCall = (path: string, request: RemnawaveRequest) => Promise<PanelResponse>;

export function remnawaveCall(client: RemnawaveClient): RemnawaveCall {
  return async (path, request) => {
    try {
      return await client.request(path, request);
    } catch (err) {
      if (isDroppedConnection(err)) throw new PanelError('unreachable', DROPPED_CONNECTION);
      throw err;
    }
  };
}

/** The `response` of the panel's `{response: …}` envelope. */
export function unwrap(response: PanelResponse, action: string): unknown {
  const inner = expectJsonObject(response, action).response;
  if (inner === null || typeof inner !== 'object') throw new PanelError('invalid_response', `${action}: the answer has no "response"`, response.status);
  return inner;
}

export async function readUser(call: RemnawaveCall, username: string): Promise<RemnawaveUser | null> {
  if (!USERNAME.test(username)) throw new PanelError('rejected', `${USERNAME_RULE}: "${username}" cannot be a user of this panel`, 400);
  const response = await call(`/api/users/by-username/${encodeURIComponent(username)}`, { method: 'GET' });
  if (response.status === 200) return asRemnawaveUser(unwrap(response, 'Reading the user'));
  const code = errorCodeOf(response);
  if (response.status === 404 && (code === NOT_FOUND_BY_UNIQUE_FIELDS || code === USER_NOT_FOUND)) return null;
  throw remnawaveFailure(response, 'Reading the user');
}

export async function requireUser(call: RemnawaveCall, username: string): Promise<RemnawaveUser> {
  const user = await readUser(call, username);
  if (!user) throw new PanelError('rejected', `The user ${username} does not exist on the panel`, 404);
  return user;
}

/** For adoptIfOurs, which compares `note`: Remnawave keeps our marker in `description`. */
const readForAdoption = (call: RemnawaveCall) => async (username: string) => {
  const user = await readUser(call, username);
  return user && { ...user, note: user.description };
};

export async function readSquads(call: RemnawaveCall): Promise<PanelService[]> {
  const response = await call('/api/internal-squads', { method: 'GET' });
  if (isForbiddenResource(response)) {
    throw new PanelError(
      'not_permitted',
      'This API token may not list internal squads (it lacks the internal-squads scope, or was deleted): give it that scope, or make one with all scopes',
      403,
    );
  }
  if (response.status !== 200) throw remnawaveFailure(response, 'Listing internal squads');
  const squads = (unwrap(response, 'Listing internal squads') as { internalSquads?: unknown }).internalSquads;
  if (!Array.isArray(squads)) throw new PanelError('invalid_response', 'Listing internal squads: the answer has no "internalSquads"');
  return (squads as Array<{ uuid: string; name: string }>).map((squad) => ({ id: squad.uuid, name: squad.name }));
}

/** Throws PanelError('rejected') naming the first of `uuids` the panel does not have. */
export async function requireSquads(call: RemnawaveCall, uuids: string[]): Promise<void> {
  const known = new Set((await readSquads(call)).map((squad) => squad.id.toLowerCase()));
  const missing = uuids.find((uuid) => !known.has(uuid.toLowerCase()));
  if (missing) throw new PanelError('rejected', `The panel has no internal squad ${missing}; check the server's squads`);
}

/** 3.x only: the version from `GET /api/system/metadata` (a token without the system scope skips this). */
export async function checkVersion(call: RemnawaveCall): Promise<void> {
  const response = await call('/api/system/metadata', { method: 'GET' });
  if (isForbiddenResource(response)) return;
  if (isRouteNotFound(response)) {
    // No metadata route: a panel older than 2.5, or no Remnawave at all (then the users route is missing too).
    const users = await call('/api/users?start=0&size=1', { method: 'GET' });
    if (isRouteNotFound(users)) throw remnawaveFailure(users, 'Reading users');
    throw new PanelError('rejected', 'This Remnawave panel is older than 2.5; the storefront needs Remnawave 3.0 or later');
  }
  if (response.status !== 200) throw remnawaveFailure(response, 'Reading the panel version');
  const reported = (unwrap(response, 'Reading the panel version') as { version?: unknown }).version;
  const version = typeof reported === 'string' || typeof reported === 'number' ? String(reported) : '';
  const major = Number.parseInt(version, 10);
  if (!(major >= 3)) {
    throw new PanelError(
      'rejected',
      `This panel runs Remnawave ${version || 'of an unknown version'}; the storefront speaks the Remnawave 3.x API (users by numeric id): update the panel to 3.0 or later`,
    );
  }
}

export async function checkMayReadUsers(call: RemnawaveCall): Promise<void> {
  const response = await call('/api/users?start=0&size=1', { method: 'GET' });
  if (isForbiddenResource(response)) {
    throw new PanelError(
      'not_permitted',
      'This API token may not manage users (it lacks the users scope, or was deleted): give it users:*, or make one with all scopes',
      403,
    );
  }
  if (response.status !== 200) throw remnawaveFailure(response, 'Reading users');
  const users = (unwrap(response, 'Reading users') as { users?: unknown }).users;
  if (!Array.isArray(users)) throw new PanelError('invalid_response', 'Reading users: the answer has no "users"');
  users.forEach((user) => asRemnawaveUser(user));
}

export async function fetchLinks(call: RemnawaveCall, username: string): Promise<string[]> {
  const response = await call(`/api/subscriptions/by-username/${encodeURIComponent(username)}`, { method: 'GET' });
  if (response.status === 404 && errorCodeOf(response)) return [];
  if (response.status !== 200) throw remnawaveFailure(response, 'Reading the configuration links');
  const links = (unwrap(response, 'Reading the configuration links') as { links?: unknown }).links;
  return Array.isArray(links) ? links.filter((link): link is string => typeof link === 'string' && !isRemarkOnlyLink(link)) : [];
}

/** One of the `/api/users/{id}/actions/…` routes; `alreadySo` error codes mean it already is as asked. */
export async function userAction(call: RemnawaveCall, username: string, action: string, label: string, alreadySo: string[] = []): Promise<PanelAccount> {
  const user = await requireUser(call, username);
  const response = await call(`/api/users/${user.id}/actions/${action}`, { method: 'POST' });
  if (response.status === 200) return toAccount(unwrap(response, label));
  const code = errorCodeOf(response);
  if (response.status === 400 && code && alreadySo.includes(code)) return toAccount(await requireUser(call, username));
  if (response.status === 404 && code === USER_NOT_FOUND) throw new PanelError('rejected', `The user ${username} does not exist on the panel`, 404);
  throw remnawaveFailure(response, label);
}

/**
 * `PATCH /api/users` by username (UsersService.updateUser: only the fields sent change). A user that is not there
 * is 404 A025: refused.
 */
export async function patchUser(call: RemnawaveCall, username: string, body: Record<string, unknown>, label: string): Promise<PanelAccount> {
  const response = await call('/api/users', { method: 'PATCH', json: { username, ...body } });
  if (response.status === 200) return toAccount(unwrap(response, label));
  if (response.status === 404 && errorCodeOf(response) === USER_NOT_FOUND)
    throw new PanelError('rejected', `The user ${username} does not exist on the panel`, 404);
  throw remnawaveFailure(response, label);
}

/**
 * The user in exactly the squads of `serviceId`. The panel answers an unknown squad with a bare 500 A039 (the
 * membership insert fails its foreign key and the transaction is rolled back), so the squads are checked first.
 * The short UUID, and with it the subscription URL, does not change.
 */
export async function setUserSquads(call: RemnawaveCall, username: string, serviceId: string): Promise<PanelAccount> {
  const squads = squadUuids(serviceId);
  if (squads.length === 0) throw new PanelError('rejected', 'Pick at least one internal squad for the user');
  await requireSquads(call, squads);
  // hwidDeviceLimit 0 again, as on every extend: a limit set in the panel would make it refuse our /sub (no x-hwid).
  return patchUser(call, username, { activeInternalSquads: squads, hwidDeviceLimit: 0 }, "Changing the user's internal squads");
}

/** The new user in the squads of `serviceId`; after a timeout, a taken username or a 5xx, adopted back if it is ours. */
export async function createUser(call: RemnawaveCall, serviceId: string, input: NewPanelAccount): Promise<PanelAccount> {
  const squads = squadUuids(serviceId);
  const body = {
    username: input.username,
    status: 'ACTIVE',
    trafficLimitBytes: input.dataLimitBytes ?? 0,
    trafficLimitStrategy: 'NO_RESET',
    expireAt: expireAtFor(input.expiresAt),
    description: input.note,
    // 0 = no HWID limit for this user: our /sub enforces device limits and fetches without x-hwid.
    hwidDeviceLimit: 0,
    activeInternalSquads: squads,
  };
  const readBack = readForAdoption(call);
  let response: PanelResponse;
  try {
    response = await call('/api/users', { method: 'POST', json: body });
  } catch (err) {
    if (err instanceof PanelError && err.kind === 'timeout') return adoptIfOurs(input, err, readBack, toAccount);
    throw err;
  }
  if (response.status === 201 || response.status === 200) return toAccount(unwrap(response, 'Creating the user'));
  if (response.status === 400 && errorCodeOf(response) === USERNAME_TAKEN) {
    const taken = new PanelError('conflict', `The username ${input.username} is already taken on the panel`, 400);
    return adoptIfOurs(input, taken, readBack, toAccount);
  }
  if (response.status >= 500) {
    // The panel may have written the user before failing (it reads the new user back after the insert).
    const failure = remnawaveFailure(response, 'Creating the user');
    return adoptIfOurs(input, failure, readBack, toAccount).catch(async (err: unknown) => {
      if (err === failure && errorCodeOf(response) === CREATE_USER_ERROR && squads.length > 0) await requireSquads(call, squads);
      throw err;
    });
  }
  throw remnawaveFailure(response, 'Creating the user');
}
