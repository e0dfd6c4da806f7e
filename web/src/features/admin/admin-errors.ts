import { isApiError } from '../../api';
import { CLIENT_ERROR_CODES } from '../../api/api-error';

/** The server's message for a failed call, or the screen's catalogue message when it sent none. */
export function errorMessage(error: unknown, fallback: string): string {
  if (!isApiError(error) || error.code === CLIENT_ERROR_CODES.internal) return fallback;
  return error.message || fallback;
}

/** Per-field problems from a `validation_failed` answer (field name → message). */
export function fieldErrors(error: unknown): Record<string, string> {
  return isApiError(error) ? (error.fields ?? {}) : {};
}
