import { describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';

const TOKEN = 'metrics-token-0123456789abcdef';

/** A card payment end to end (the fake Stripe over real HTTP, its webhook delivered to the listening app), as /metrics counts it. */
describe.each(TEST_DATABASES)('payment metrics (%s)', (kind) => {
  const f = useBillingFixture(kind, { env: () => ({ METRICS_TOKEN: TOKEN }) });
  const scrape = async () => {
    const res = await f.t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    return res.body;
  };
  const valueOf = (text: string, series: string) =>
    Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${series} `))
        ?.slice(series.length + 1) ?? 0,
    );

  it('counts the webhook that paid by provider and outcome, and the payment by provider once committed', async () => {
    const before = await scrape();
    await f.buyAccount(await f.newUser());
    await new Promise((resolve) => setTimeout(resolve, 50)); // counted after the commit, outside the request
    const after = await scrape();
    expect(valueOf(after, 'storefront_payments_total{provider="stripe"}')).toBe(valueOf(before, 'storefront_payments_total{provider="stripe"}') + 1);
    expect(valueOf(after, 'storefront_webhooks_total{provider="stripe",outcome="applied"}')).toBeGreaterThan(
      valueOf(before, 'storefront_webhooks_total{provider="stripe",outcome="applied"}'),
    );
    expect(valueOf(after, 'storefront_active_accounts')).toBe(valueOf(before, 'storefront_active_accounts') + 1);
  });
});
