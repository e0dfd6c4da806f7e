import { createApiClient } from './api-client';
import { createEndpoints } from './endpoints';

/** The web app's client: same-origin requests carrying the server's httpOnly session cookies. */
export const apiClient = createApiClient({ credentials: 'same-origin' });
export const api = createEndpoints(apiClient);

export { ApiError, isApiError, getErrorMessage } from './api-error';
