import { ERR } from '../../../../shared/errors.js';
import { isApiError } from '../../api';

/**
 * The server's own message for a refused request; the screen's fallback (e.g. 'Failed to create
 * trial account') when there is none: a 5xx without a usable body, or something that is not an ApiError.
 */
export function messageOrFallback(error: unknown, fallback: string): string {
  if (isApiError(error) && error.code !== ERR.internal_error && error.message) return error.message;
  return fallback;
}
