import { missingCredentials, usesApiToken, type PanelKindName, type UpdateServerBody } from '../../../../shared/servers.js';
import type { ErrorCode } from '../../../../shared/errors.js';
import { AppError, validationFailed } from '../../errors.js';
import { decryptSecret } from '../../lib/crypto.js';
import { PanelError, type PanelConnection, type PanelDriver, type PanelService } from '../../panels/panel-driver.js';
import { checkSubscriptionRoute } from '../../panels/subscription-route-check.js';
import type { ServersContext } from './servers-deps.js';
import type { ServerRecord } from './servers.repo.js';

/**
 * A server's connection to its panel: the credentials a driver is given, the credential test a server passes
 * before it is saved or enabled, and the errors an admin is shown when a panel refuses or does not answer.
 */

/** The one secret a server keeps (encrypted): the API token of a token panel, else the admin's password. */
export const secretOf = (body: { kind?: PanelKindName; password?: string; apiToken?: string }): string =>
  (usesApiToken(body.kind ?? 'marzneshin') ? body.apiToken : body.password) ?? '';

/** What a driver needs: a token panel gets its token and no login; the others a username and password. */
export function connectionFor(kind: PanelKindName, fields: { url: string; username?: string; secret: string; serviceId: string }): PanelConnection {
  return usesApiToken(kind)
    ? { url: fields.url, username: '', password: '', apiToken: fields.secret, serviceId: fields.serviceId }
    : { url: fields.url, username: fields.username ?? '', password: fields.secret, serviceId: fields.serviceId };
}

/** Panel failures an admin can fix (credentials, URL) are 400; a panel that does not answer is 502. */
export function panelFailure(err: unknown, message: string, code: ErrorCode): AppError {
  const unreachable = err instanceof PanelError && err.retryable;
  return new AppError(unreachable ? 502 : 400, code, message);
}

/**
 * The credential test failed: an admin that may not use the service is told exactly that, on the field;
 * refused credentials get the spec's message; anything else (no answer, a dropped connection, not a panel of
 * this kind) gets it followed by what the driver found, so the admin knows what to fix.
 */
function credentialTestFailure(err: unknown, message: string): AppError {
  if (err instanceof PanelError && err.kind === 'not_permitted') {
    return new AppError(400, 'connection_test_failed', err.message, { fields: { serviceId: err.message } });
  }
  const reason = err instanceof PanelError && err.kind !== 'auth' ? ` ${err.message.replace(/\.?$/, '.')}` : '';
  return panelFailure(err, `${message}${reason}`, 'connection_test_failed');
}

/** The ids in `serviceId` the panel does not offer: it is one id, or several separated by commas (squads, groups, inbounds). */
export function unknownServiceIds(services: PanelService[], serviceId: string): string[] {
  const known = new Set(services.map((service) => service.id));
  if (known.has(serviceId.trim())) return [];
  const ids = serviceId
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  return ids.length === 0 ? [serviceId] : ids.filter((id) => !known.has(id));
}

export function requireKnownService(services: PanelService[], serviceId: string): void {
  if (unknownServiceIds(services, serviceId).length > 0) {
    throw validationFailed(
      { serviceId: 'The panel has no service with this ID. Pick one from its list.' },
      'The panel has no service with this ID. Pick one from its list.',
    );
  }
}

/**
 * The connection an update asks for, and its secret: what the admin typed, else what is saved; a change of kind
 * between a token panel and a login panel needs the other credentials typed anew.
 */
export function updatedConnection(
  existing: ServerRecord,
  patch: UpdateServerBody,
  savedSecret: string,
): { secret: string; next: PanelConnection & { kind: ServerRecord['kind'] } } {
  const kind = patch.kind ?? existing.kind;
  const sameCredentials = usesApiToken(kind) === usesApiToken(existing.kind);
  const typed = { username: patch.username ?? (sameCredentials ? existing.username : undefined), password: patch.password, apiToken: patch.apiToken };
  const secret = secretOf({ kind, ...typed }) || (sameCredentials ? savedSecret : '');
  const missing = missingCredentials({ kind, username: typed.username, password: secret, apiToken: secret });
  if (Object.keys(missing).length > 0) throw validationFailed(missing, Object.values(missing)[0]);
  return {
    secret,
    next: {
      kind,
      ...connectionFor(kind, { url: patch.url ?? existing.url, username: typed.username, secret, serviceId: patch.serviceId ?? existing.serviceId }),
    },
  };
}

/** A saved server's connection, its secret decrypted. */
export const connectionOf = (deps: ServersContext, server: ServerRecord): PanelConnection =>
  connectionFor(server.kind, {
    url: server.url,
    username: server.username,
    secret: decryptSecret(deps.keys.encryption, server.passwordEncrypted),
    serviceId: server.serviceId,
  });

/** A driver for a saved server (used by provisioning too). */
export function driverFor(deps: ServersContext, server: ServerRecord): PanelDriver {
  return deps.drivers.forServer(server, () => connectionOf(deps, server));
}

/**
 * The credential test: checks the URL may be called at all, then logs in (with the admin's rights
 * for the connection's service), lists the panel's services, and fetches a user's subscription the
 * way `/sub` will.
 */
export async function testAndListServices(
  deps: ServersContext,
  connection: PanelConnection & { kind: ServerRecord['kind'] },
  message: string,
): Promise<PanelService[]> {
  await deps.checkPanelUrl(connection.url);
  const driver = deps.drivers.create(connection.kind, connection);
  try {
    await driver.testConnection();
    const services = await driver.listServices();
    await checkSubscriptionRoute(driver, connection.url);
    return services;
  } catch (err) {
    deps.log.warn({ err: err instanceof Error ? err.message : err }, 'panel connection test failed');
    throw credentialTestFailure(err, message);
  }
}
