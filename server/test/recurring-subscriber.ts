import { expect } from 'vitest';
import type { BillingFixture } from './billing-fixture.js';
import { asMarzneshinUser } from './fake-panels/marzneshin.js';
import type { DesktopSession } from './test-app.js';

/** A customer's auto-renewing subscription, paid at the fake Stripe: our ids and Stripe's. */
export interface Subscriber {
  user: DesktopSession;
  subscriptionId: string;
  sessionId: string;
  accountId: string;
  stripeSubscription: string;
  customer: string;
  /** The Stripe test clock the customer runs on. */
  clock: string;
}

/** Buys the fixture's recurring plan and pays (webhooks delivered), then runs the jobs. */
export async function subscribeToRecurring(f: BillingFixture, user?: DesktopSession): Promise<Subscriber> {
  const buyer = user ?? (await f.newUser());
  const { sessionId, subscriptionId } = await f.checkout(buyer, { planId: f.recurringPlanId });
  await f.stripe.pay(sessionId);
  await f.runJobs();
  const session = f.stripe.getSession(sessionId)!;
  const customer = session.customer as string;
  return {
    user: buyer,
    subscriptionId,
    sessionId,
    accountId: session.metadata!.vpn_account_id!,
    stripeSubscription: session.subscription as string,
    customer,
    clock: f.stripe.getCustomer(customer)!.test_clock as string,
  };
}

/** The end of the Stripe subscription's current period, in seconds. */
export const stripePeriodEnd = (f: BillingFixture, s: Subscriber) => f.stripe.getSubscription(s.stripeSubscription)!.items.data[0]!.current_period_end;

/** The panel expiry of an account (its panel user's note is our account id), in ms. */
export function panelExpiryOf(f: BillingFixture, accountId: string): number {
  const found = [...f.panel.users.values()].map(asMarzneshinUser).filter((u) => u.note === accountId);
  expect(found).toHaveLength(1);
  return new Date(`${found[0]!.expire_date}Z`).getTime();
}
