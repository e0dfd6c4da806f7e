/** Stripe's error bodies: `{ error: { type, code?, doc_url?, message, param? } }` with the matching HTTP status. */

/** The `error.type` values the fake answers with (the SDK picks its error class from the status and this). */
export type StripeErrorType = 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';

/** The JSON body of every Stripe API error. */
export interface StripeErrorBody {
  error: {
    type: StripeErrorType;
    code?: string;
    doc_url?: string;
    message: string;
    param?: string;
    /** A card error's issuer reason (`insufficient_funds`). */
    decline_code?: string;
  };
}

/** An error a route throws; the server answers it as Stripe would. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: StripeErrorType,
    message: string,
    readonly code?: string,
    readonly param?: string,
    /** A parameter validation error: Stripe does not save these under the idempotency key. */
    readonly validation = false,
    /** More fields of the error (a card error's `decline_code`). */
    readonly extra: { decline_code?: string } = {},
  ) {
    super(message);
    this.name = 'StripeApiError';
  }

  body(): StripeErrorBody {
    return {
      error: {
        type: this.type,
        ...(this.code ? { code: this.code, doc_url: `https://stripe.com/docs/error-codes/${this.code.replace(/_/g, '-')}` } : {}),
        message: this.message,
        ...(this.param ? { param: this.param } : {}),
        ...this.extra,
      },
    };
  }
}

/** 400 invalid_request_error about one parameter. */
export function invalidParam(param: string, message: string, code?: string): StripeApiError {
  return new StripeApiError(400, 'invalid_request_error', message, code, param, true);
}

/** 400 "Missing required param: x." */
export function missingParam(param: string): StripeApiError {
  return invalidParam(param, `Missing required param: ${param}.`, 'parameter_missing');
}

/** 404 "No such checkout.session: 'cs_…'". */
export function noSuch(objectName: string, id: string, param: string): StripeApiError {
  return new StripeApiError(404, 'invalid_request_error', `No such ${objectName}: '${id}'`, 'resource_missing', param);
}

/** 401 for a missing or wrong API key (Stripe answers these as invalid_request_error with status 401). */
export function authenticationError(providedKey: string | null): StripeApiError {
  const message =
    providedKey === null
      ? "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/."
      : `Invalid API Key provided: ${maskKey(providedKey)}`;
  return new StripeApiError(401, 'invalid_request_error', message);
}

/** `sk_test_abcdef…wxyz` → `sk_test_******…wxyz`, as Stripe echoes a wrong key. */
function maskKey(key: string): string {
  const prefix = /^(?:sk|rk|pk)_(?:test|live)_/.exec(key)?.[0] ?? '';
  const rest = key.slice(prefix.length);
  if (rest.length <= 4) return prefix + '*'.repeat(rest.length);
  return prefix + '*'.repeat(rest.length - 4) + rest.slice(-4);
}
