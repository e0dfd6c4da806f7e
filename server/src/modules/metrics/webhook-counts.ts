import { AppError } from '../../errors.js';
import type { Metrics, WebhookOutcome } from './metrics.js';

/** The provider each payment method's webhook comes from (the label Prometheus shows). */
const PROVIDER_OF: Record<string, string> = { card: 'stripe', crypto: 'btcpay', yookassa: 'yookassa', cryptopay: 'cryptopay' };

/**
 * A webhook handler that counts how each event ended, by provider: applied, duplicate (seen before), refused (a
 * 4xx: bad signature, unreadable, unknown account) or failed (anything else: it will be sent again).
 */
export function countWebhookResults<Method extends string, Args extends unknown[], Answer extends { duplicate?: boolean }>(
  metrics: Metrics,
  handle: (method: Method, ...args: Args) => Promise<Answer>,
): (method: Method, ...args: Args) => Promise<Answer> {
  return async (method, ...args) => {
    const provider = PROVIDER_OF[method] ?? method;
    let outcome: WebhookOutcome = 'failed';
    try {
      const answer = await handle(method, ...args);
      outcome = answer.duplicate ? 'duplicate' : 'applied';
      return answer;
    } catch (err) {
      if (err instanceof AppError && err.statusCode < 500) outcome = 'refused';
      throw err;
    } finally {
      metrics.webhook(provider, outcome);
    }
  };
}
