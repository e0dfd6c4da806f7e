import { createApiClient, type ApiClient, type ApiClientOptions } from './api-client';
import { createEndpoints } from './endpoints';
import { withPasskeyChallenge } from './passkey-challenge';

/** The web app's transport: same-origin requests carrying the server's httpOnly session cookies. */
let client = createApiClient({ credentials: 'same-origin' });

/** The client every screen uses; it delegates to the transport set up for this app. */
export const apiClient: ApiClient = {
  // A staff session asked for its passkey (or a step-up) proves it, then the request is sent again.
  request: (method, path, options) => withPasskeyChallenge(path, () => client.request(method, path, options)),
  onSessionExpired: (listener) => client.onSessionExpired(listener),
};
export const api = createEndpoints(apiClient);

/**
 * Swaps the transport (the desktop renderer's bridge). Call it once, before the first render:
 * session-expiry listeners registered earlier stay with the previous transport.
 */
export function configureApiClient(options: ApiClientOptions): void {
  client = createApiClient(options);
}

export { ApiError, isApiError, getErrorMessage } from './api-error';
