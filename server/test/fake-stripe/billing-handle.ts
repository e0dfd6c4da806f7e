/** The handle's Billing getters and control methods (see FakeStripeBilling). */
import type { Billing, Outcome } from './billing.js';
import type { FakeStripeBilling } from './handle-types.js';
import { nextRenewalTime } from './test-clocks.js';
import type { StripeEventObject } from './webhooks.js';

const copy = <T>(value: T | undefined): T | undefined => (value === undefined ? undefined : structuredClone(value));

/** `deliverAll` delivers events in order and resolves when each has been answered. */
export function billingHandle(billing: Billing, deliverAll: (events: StripeEventObject[]) => Promise<void>): FakeStripeBilling {
  const act = async <T>(change: () => Outcome<T>): Promise<T> => {
    const { result, events } = change();
    await deliverAll(events);
    return structuredClone(result);
  };
  return {
    getCustomer: (id) => copy(billing.customer(id)),
    getSubscription: (id) => copy(billing.subscription(id)),
    getInvoice: (id) => copy(billing.invoice(id)),
    listInvoices: (subscriptionId) => structuredClone(billing.invoicesOf(subscriptionId)),
    invoicePaymentIntents: (invoiceId) => billing.paymentIntentsOf(invoiceId),
    getTestClock: (id) => copy(billing.clock(id)),
    advanceClock(clockId, to) {
      return act(() => {
        const clock = billing.clock(clockId);
        if (!clock) throw new Error(`fake Stripe: no test clock ${clockId}`);
        if (to <= clock.frozen_time) {
          throw new Error(`fake Stripe: test clock ${clockId} is at ${clock.frozen_time}; it can only advance, not go to ${to}`);
        }
        return billing.advanceClock(clockId, to);
      });
    },
    advanceToNextRenewal(clockId) {
      return act(() => {
        const clock = billing.clock(clockId);
        if (!clock) throw new Error(`fake Stripe: no test clock ${clockId}`);
        return billing.advanceClock(clockId, nextRenewalTime(clock, billing.subscriptions()));
      });
    },
    setCardDeclines: (customerId, declines) => billing.setCardDeclines(customerId, declines),
    payOpenInvoices: (customerId) => act(() => billing.payOpenInvoices(customerId)),
  };
}
