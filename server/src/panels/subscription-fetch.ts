import { PanelError } from './panel-driver.js';
import { panelFetch, type PanelResponse } from './panel-http.js';
import type { PanelSubscriptionRequest } from './subscription-url.js';

export interface PanelSubscriptionAnswer {
  response: PanelResponse;
  via: PanelSubscriptionRequest['via'];
  /** The request that answered. */
  url: string;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** What went wrong with one way of asking, for the log and the connection test. */
export interface SubscriptionAttempt {
  via: PanelSubscriptionRequest['via'];
  url: string;
  problem: string;
}

export class PanelSubscriptionError extends PanelError {
  constructor(
    public readonly attempts: SubscriptionAttempt[],
    kind: PanelError['kind'],
    status?: number,
  ) {
    super(kind, attempts.map((attempt) => `${attempt.url}: ${attempt.problem}`).join('; '), status);
    this.name = 'PanelSubscriptionError';
  }
}

/**
 * GETs a subscription the first way that answers 200 (or what `answered` accepts; panel URL first, then
 * the public address): a way that cannot be reached, answers late, or answers anything else hands over to
 * the next. Throws a
 * PanelSubscriptionError naming every way tried and what each did, retryable when the last one was.
 */
export async function fetchPanelSubscription(
  requests: readonly PanelSubscriptionRequest[],
  options: { timeoutMs?: number; answered?: (status: number) => boolean } = {},
): Promise<PanelSubscriptionAnswer> {
  const answered = options.answered ?? ((status: number) => status === 200);
  const attempts: SubscriptionAttempt[] = [];
  let last: PanelError | undefined;
  for (const request of requests) {
    try {
      const response = await panelFetch(request.url, { method: 'GET', headers: request.headers, timeoutMs: options.timeoutMs });
      if (answered(response.status)) return { response, via: request.via, url: request.url };
      last = new PanelError(response.status >= 500 ? 'server_error' : 'rejected', `HTTP ${response.status}`, response.status);
      attempts.push({ via: request.via, url: request.url, problem: `answered HTTP ${response.status}` });
    } catch (err) {
      if (!(err instanceof PanelError)) throw err;
      last = err;
      attempts.push({ via: request.via, url: request.url, problem: describe(err) });
    }
  }
  throw new PanelSubscriptionError(attempts, last?.kind ?? 'unreachable', last?.status);
}
