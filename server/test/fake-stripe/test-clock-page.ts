/**
 * A page for trying renewals by hand (`npm run demo`): `GET /test-clocks` lists every test clock with the
 * subscriptions of its customers, and each clock's "Advance to the next renewal" button
 * (`POST /test-clocks/:id/advance-to-next-renewal`) moves it past the earliest period end, waits for the webhooks,
 * and comes back to the list.
 */
import type { Billing } from './billing.js';
import { escapeHtml, layout } from './checkout-page.js';
import { html, redirect, safeDecode, type HttpAnswer } from './http.js';
import { itemOf, type SubscriptionObject } from './subscription-objects.js';
import { nextRenewalTime, type TestClockObject } from './test-clocks.js';
import type { StripeEventObject } from './webhooks.js';

export interface TestClockPageDeps {
  billing: Billing;
  /** Delivers events in order; resolves when they have been answered. */
  deliver(events: StripeEventObject[]): Promise<void>;
}

const LIST_PATH = '/test-clocks';

/** `GET /test-clocks` and `POST /test-clocks/:id/advance-to-next-renewal`; null for any other path. */
export async function handleTestClockPage(method: string, path: string, deps: TestClockPageDeps): Promise<HttpAnswer | null> {
  if (path === LIST_PATH) {
    if (method !== 'GET') return { status: 405, body: '', headers: { allow: 'GET' } };
    return html(200, testClocksPage(deps.billing));
  }
  const match = /^\/test-clocks\/([^/]+)\/advance-to-next-renewal$/.exec(path);
  if (!match) return null;
  if (method !== 'POST') return { status: 405, body: '', headers: { allow: 'POST' } };
  const clock = deps.billing.clock(safeDecode(match[1]!));
  if (!clock) return html(404, layout('Test clock not found', `<h1>Test clock not found</h1>\n<p><a href="${LIST_PATH}">All test clocks</a></p>`));
  const { events } = deps.billing.advanceClock(clock.id, nextRenewalTime(clock, deps.billing.subscriptions()));
  await deps.deliver(events);
  return redirect(LIST_PATH);
}

const isoTime = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString();

function subscriptionLine(subscription: SubscriptionObject, billing: Billing): string {
  const email = billing.customer(subscription.customer as string)?.email ?? '(no e-mail)';
  const periodEnd = isoTime(itemOf(subscription).current_period_end);
  return `<li><code>${escapeHtml(subscription.id)}</code> — ${escapeHtml(email)} — ${escapeHtml(subscription.status)}
<br>current period ends <time datetime="${periodEnd}">${periodEnd}</time>; cancel_at_period_end: ${subscription.cancel_at_period_end}</li>`;
}

function clockSection(clock: TestClockObject, billing: Billing): string {
  const subscriptions = billing.subscriptions().filter((subscription) => subscription.test_clock === clock.id);
  const frozen = isoTime(clock.frozen_time);
  const list =
    subscriptions.length > 0
      ? `<ul>\n${subscriptions.map((subscription) => subscriptionLine(subscription, billing)).join('\n')}\n</ul>`
      : '<p>No subscriptions on this clock.</p>';
  return `<section>
<h2>${escapeHtml(clock.name ?? clock.id)}</h2>
<p><code>${escapeHtml(clock.id)}</code> — frozen at <time datetime="${frozen}">${frozen}</time> — ${escapeHtml(clock.status)}</p>
${list}
<form method="post" action="${LIST_PATH}/${encodeURIComponent(clock.id)}/advance-to-next-renewal">
<button type="submit">Advance to the next renewal</button>
</form>
</section>`;
}

function testClocksPage(billing: Billing): string {
  const clocks = billing.clocks();
  const sections = clocks.map((clock) => clockSection(clock, billing)).join('\n');
  return layout(
    'Test clocks — Fake Stripe',
    `<h1>Test clocks</h1>
<p>Advancing a clock renews its customers' subscriptions (or ends those set to cancel) and sends the webhooks before this page comes back.</p>
${sections || '<p>No test clocks yet: subscribe to a plan first.</p>'}`,
  );
}
