import { describe, expect, it } from 'vitest';
import { DAY, HOUR, RENEWAL_EVENTS, START, subscribe } from './billing-kit.js';
import { typesOf, useFakeStripe, verifiedEvents } from './test-kit.js';

const iso = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString();

describe('fake Stripe: the test clocks page', () => {
  const t = useFakeStripe();

  const advanceButton = (clockId: string): string => `${t.fake.url}/test-clocks/${clockId}/advance-to-next-renewal`;

  it('GET /test-clocks shows each clock with its customers’ subscriptions and an advance button', async () => {
    const { clock, subscription } = await subscribe(t, { email: 'renew-me@example.com' });
    const page = await fetch(`${t.fake.url}/test-clocks`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain(clock.id);
    expect(html).toContain(iso(START));
    expect(html).toContain('ready');
    expect(html).toContain(subscription.id);
    expect(html).toContain('renew-me@example.com');
    expect(html).toContain('active');
    expect(html).toContain(iso(subscription.items.data[0]!.current_period_end));
    expect(html).toContain('cancel_at_period_end: false');
    expect(html).toContain(`action="/test-clocks/${clock.id}/advance-to-next-renewal"`);
    expect(html).toContain('Advance to the next renewal');
  });

  it('the button renews at the next period end (+2 hours), delivers the webhooks, then 303 back to the list', async () => {
    const { clock, subscription } = await subscribe(t);
    const periodEnd = subscription.items.data[0]!.current_period_end;
    const hook = await t.receiver();

    const posted = await fetch(advanceButton(clock.id), { method: 'POST', redirect: 'manual' });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/test-clocks');
    // Delivered before the answer: no waitForDeliveries needed.
    expect(typesOf(verifiedEvents(hook))).toEqual(['test_helpers.test_clock.advancing', ...RENEWAL_EVENTS, 'test_helpers.test_clock.ready']);

    expect(await t.stripe.testHelpers.testClocks.retrieve(clock.id)).toMatchObject({ status: 'ready', frozen_time: periodEnd + 2 * HOUR });
    const renewal = t.fake.listInvoices(subscription.id)[1]!;
    expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', status: 'paid', amount_paid: 999 });
    const after = await (await fetch(`${t.fake.url}/test-clocks`)).text();
    expect(after).toContain(iso(periodEnd + 2 * HOUR));
  });

  it('answers 404 for an unknown clock and 405 for the wrong method, changing nothing', async () => {
    const { clock } = await subscribe(t);
    const unknown = await fetch(advanceButton('clock_nope'), { method: 'POST', redirect: 'manual' });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Test clock not found');
    expect((await fetch(advanceButton(clock.id))).status).toBe(405);
    expect((await fetch(`${t.fake.url}/test-clocks`, { method: 'POST' })).status).toBe(405);
    expect(t.fake.getTestClock(clock.id)?.frozen_time).toBe(START);
  });

  it('escapes a clock’s name and says when there are no clocks', async () => {
    expect(await (await fetch(`${t.fake.url}/test-clocks`)).text()).toContain('No test clocks yet');
    await t.stripe.testHelpers.testClocks.create({ frozen_time: START, name: '<script>alert(1)</script>' });
    const html = await (await fetch(`${t.fake.url}/test-clocks`)).text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&#60;script&#62;');
  });
});

describe('fake Stripe: advanceToNextRenewal', () => {
  const t = useFakeStripe();

  it('advances to 2 hours after the earliest period end of the clock’s subscriptions that are not canceled', async () => {
    const { clock, subscription } = await subscribe(t, { interval: 'week' });
    const periodEnd = subscription.items.data[0]!.current_period_end;
    const advanced = await t.fake.advanceToNextRenewal(clock.id);
    expect(advanced).toMatchObject({ id: clock.id, status: 'ready', frozen_time: periodEnd + 2 * HOUR });
    expect(t.fake.listInvoices(subscription.id).map((invoice) => invoice.status)).toEqual(['paid', 'paid']);

    // A canceled subscription no longer counts: with none left, the clock moves one day.
    await t.stripe.subscriptions.cancel(subscription.id);
    const moved = await t.fake.advanceToNextRenewal(clock.id);
    expect(moved.frozen_time).toBe(periodEnd + 2 * HOUR + DAY);
    await expect(t.fake.advanceToNextRenewal('clock_nope')).rejects.toThrow(/no test clock clock_nope/);
  });
});
