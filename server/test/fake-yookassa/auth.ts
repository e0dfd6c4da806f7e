/**
 * HTTP Basic authentication with the shop id as the user name and the secret key as the password. Every
 * failure is 401 `invalid_credentials`; the descriptions are the ones YooKassa gives.
 */
import { YookassaApiError } from './http.js';

const refused = (description: string, parameter?: string): YookassaApiError => new YookassaApiError(401, 'invalid_credentials', description, parameter);

export const WRONG_CREDENTIALS = 'Error in shopId or secret key. Check their validity. You can reissue the key in the Merchant Profile';

/** Throws 401 unless `authorization` is `Basic base64(shopId:secretKey)`. */
export function checkAuthorization(authorization: string | null, shopId: string, secretKey: string): void {
  if (authorization === null || authorization.trim() === '') throw refused('Authorization header not found');
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!match) throw refused('Authorization header has illegal format', 'Authorization');
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) throw refused('Basic authentication data has illegal format', 'Authorization');
  const [user, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  if (password === '') throw refused('Password is missing', 'Authorization');
  if (user !== shopId || password !== secretKey) throw refused(WRONG_CREDENTIALS, 'Authorization');
}
