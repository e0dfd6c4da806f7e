import type { ApiErrorBody, CodeStatus, ErrorCode } from '../../../shared/errors.js';
import type { ImportRowProblem } from '../../../shared/panel-import.js';
import { clientMessage } from './language';

/** Codes the client itself produces when the server gave no usable error body. */
export const CLIENT_ERROR_CODES = {
  network: 'network_error',
  internal: 'internal_error',
} as const;

type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

/** A failed API call. Screens branch on `code`; `message` is safe to show as-is. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  /** One of the server's catalogue (shared/errors.ts `ERR`), one the client made, or a newer server's. */
  readonly code: ErrorCode | ClientErrorCode | (string & {});
  readonly fields: Record<string, string> | undefined;
  /** Why a sign-in code was refused (on `invalid_code`). */
  readonly codeStatus: CodeStatus | undefined;
  /** Each row of an import that was refused, and why (on `import_invalid`). */
  readonly rows: ImportRowProblem[] | undefined;
  /** What the wallet is short of (on `insufficient_balance`). */
  readonly needed: number | undefined;

  constructor(
    status: number,
    code: ApiError['code'],
    message: string,
    fields?: Record<string, string>,
    codeStatus?: CodeStatus,
    rows?: ImportRowProblem[],
    needed?: number,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.codeStatus = codeStatus;
    this.rows = rows;
    this.needed = needed;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The request never got an answer (server down, offline, blocked). */
export function createNetworkError(): ApiError {
  return new ApiError(0, CLIENT_ERROR_CODES.network, clientMessage('serverUnreachable'));
}

/** Turns a failed response's parsed body into an ApiError, whatever the body held. */
export function createResponseError(status: number, body: unknown): ApiError {
  if (isApiErrorBody(body)) {
    return new ApiError(status, body.code, body.message, body.fields, body.codeStatus, body.rows, typeof body.needed === 'number' ? body.needed : undefined);
  }
  return new ApiError(status, CLIENT_ERROR_CODES.internal, clientMessage('unexpected'));
}

function isApiErrorBody(body: unknown): body is ApiErrorBody {
  if (typeof body !== 'object' || body === null) return false;
  const { code, message } = body as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string';
}

/** The message to show for any thrown value, with a screen-specific fallback. */
export function getErrorMessage(error: unknown, fallback?: string): string {
  if (isApiError(error) && error.message) return error.message;
  return fallback ?? clientMessage('unexpected');
}
