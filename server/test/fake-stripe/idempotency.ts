/**
 * Idempotency-Key replay as Stripe does it: a key's first answer is saved with the request's method, path and
 * parameters; the same request with that key gets the saved answer again (`Idempotent-Replayed: true`), another
 * request with it is a 400 idempotency_error.
 */
import { canonicalForm, type FormHash } from './form-body.js';
import type { HttpAnswer } from './http.js';
import { StripeApiError } from './stripe-errors.js';

interface SavedAnswer {
  fingerprint: string;
  requestId: string;
  answer: HttpAnswer;
}

/** One API request as the idempotency check sees it. */
export interface IdempotentRequest {
  key: string;
  method: string;
  path: string;
  params: FormHash;
}

export interface IdempotencyStore {
  /**
   * The saved answer to replay, marked as a replay (its request-specific headers are still the first request's), or
   * null when the key is new. Throws idempotency_error (a StripeApiError) when the key was used for another request.
   */
  replay(request: IdempotentRequest): HttpAnswer | null;
  save(request: IdempotentRequest, requestId: string, answer: HttpAnswer): void;
}

export function createIdempotencyStore(): IdempotencyStore {
  const saved = new Map<string, SavedAnswer>();
  const fingerprintOf = (request: IdempotentRequest): string => `${request.method} ${request.path} ${canonicalForm(request.params)}`;
  return {
    replay(request) {
      const found = saved.get(request.key);
      if (!found) return null;
      if (found.fingerprint !== fingerprintOf(request)) {
        throw new StripeApiError(
          400,
          'idempotency_error',
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${request.key}' if you meant to execute a different request.`,
          undefined,
          undefined,
          true, // not saved: the key keeps its first answer
        );
      }
      return { ...found.answer, headers: { ...found.answer.headers, 'idempotent-replayed': 'true', 'original-request': found.requestId } };
    },
    save(request, requestId, answer) {
      saved.set(request.key, { fingerprint: fingerprintOf(request), requestId, answer });
    },
  };
}
