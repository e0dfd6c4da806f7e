import type { CodeStatus, ErrorCode } from '../../shared/errors.js';
import type { ImportRowProblem } from '../../shared/panel-import.js';

/** Every failure a client may see. The error handler turns it into `{ code, message }` with its status. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: ErrorCode,
    message: string,
    public readonly details: {
      fields?: Record<string, string>;
      retryAfterSeconds?: number;
      codeStatus?: CodeStatus;
      rows?: ImportRowProblem[];
      reason?: string;
      needed?: number;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const validationFailed = (fields: Record<string, string>, message = 'Some fields are not valid.') =>
  new AppError(400, 'validation_failed', message, { fields });

export const unauthenticated = (message = 'Please sign in to continue.') => new AppError(401, 'unauthenticated', message);

export const forbidden = (message = 'You do not have permission to do that.') => new AppError(403, 'forbidden', message);
export const roleForbidden = () => new AppError(403, 'role_forbidden', 'Your staff role does not include this. Ask the store owner.');

export const notFound = (message = 'Not found.') => new AppError(404, 'not_found', message);

export const rateLimited = (retryAfterSeconds: number, message?: string) =>
  new AppError(429, 'rate_limited', message ?? `Too many requests. Please try again in ${retryAfterSeconds} seconds.`, { retryAfterSeconds });
