import type { FastifyBaseLogger } from 'fastify';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import type { ProviderMethod } from '../../../../../shared/billing-schemas.js';
import type { Db } from '../../../db/knex.js';
import { AppError } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import {
  MalformedEventError,
  PaymentProviderError,
  UnreadableEventError,
  WebhookSignatureError,
  type PaymentDriver,
  type PaymentEvent,
  type VerifiedWebhook,
} from '../../../payments/payment-driver.js';
import type { BillingRepo } from '../billing.repo.js';
import type { PaymentConfirmation } from '../checkout/payment-confirmation.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import type { RecurringPayments } from '../recurring/recurring-payments.js';
import type { PaymentReversals } from '../refunds/payment-reversals.js';
import type { UnreadableWebhooksRepo } from './unreadable-webhooks.repo.js';

/** The payment providers' webhooks: verified, recorded once, and handed to the module each event is for. */
export function createPaymentWebhooksService(deps: {
  db: Db;
  billing: BillingRepo;
  payments: PaymentDrivers;
  confirmation: PaymentConfirmation;
  reversals: PaymentReversals;
  recurring: RecurringPayments;
  unreadable: UnreadableWebhooksRepo;
  clock: Clock;
  log: FastifyBaseLogger;
}) {
  const { billing } = deps;

  /** Our event, applied inside the transaction that recorded the webhook. */
  async function applyEvent(event: PaymentEvent, trx: Db): Promise<void> {
    switch (event.kind) {
      case 'checkout':
        await deps.confirmation.applyCheckout(event.checkout, trx);
        return;
      case 'refunded':
        await deps.reversals.applyRefund(event, trx);
        return;
      case 'refund_failed':
        await deps.reversals.applyRefundFailed(event, trx);
        return;
      case 'disputed':
        await deps.reversals.applyDispute(event, trx);
        return;
      case 'dispute_closed':
        await deps.reversals.applyDisputeClosed(event, trx);
        return;
      case 'invoice':
        await deps.recurring.applyInvoice(event.invoice, trx);
        return;
      case 'subscription':
        await deps.recurring.applyState(event.subscription, trx);
        return;
    }
  }

  /**
   * An event the driver cannot read is refused, never recorded as processed: the provider delivers it again
   * (Stripe for up to three days) and the admin sees its version on the System tab.
   */
  async function refuseUnreadable(provider: string, err: UnreadableEventError): Promise<AppError> {
    const { id, type, apiVersion } = err.event;
    await deps.unreadable.record({ provider, apiVersion, eventId: id, eventType: type, reason: err.reason }, deps.clock());
    deps.log.error(
      { provider, eventId: id, eventType: type, apiVersion, reason: err.reason },
      'webhook: an event this version cannot read was refused; the provider will deliver it again',
    );
    return new AppError(422, 'unreadable_event', err.message);
  }

  /**
   * The event is verified by the account it is signed for: the keys in force, or an account switched away
   * from whose payments still send events (each with its own webhook secret). The driver that verified it
   * completes it from its own account.
   */
  async function verifyWithAnyAccount(
    drivers: PaymentDriver[],
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<{ driver: PaymentDriver; webhook: VerifiedWebhook }> {
    let refused: WebhookSignatureError | undefined;
    for (const driver of drivers) {
      try {
        return { driver, webhook: await driver.verifyWebhook(rawBody, headers) };
      } catch (err) {
        if (err instanceof WebhookSignatureError) {
          refused = err;
          continue;
        }
        if (err instanceof UnreadableEventError) throw await refuseUnreadable(driver.name, err);
        // Signed, but not an event the provider sends: delivering it again cannot help.
        if (err instanceof MalformedEventError) throw new AppError(400, 'invalid_body', err.message);
        // Completing the event needed the provider, which did not answer: it delivers the event again later.
        if (err instanceof PaymentProviderError)
          throw new AppError(503, 'payment_provider_error', 'The payment provider could not be reached; deliver the event again later.');
        throw err;
      }
    }
    throw new AppError(400, 'invalid_signature', (refused ?? new WebhookSignatureError()).message);
  }

  return {
    /**
     * Verifies the signature over the raw body, then records the event and applies it in one database
     * transaction: the insert of the event id is the exactly-once gate, so a redelivery, or the same
     * event racing itself on another instance, applies nothing. An event the driver cannot read is refused
     * (422) before anything is recorded; a signed body that is not an event at all (a NUL character in it) is a
     * 400. An event for a payment the provider says it does not have is acknowledged (recorded, logged, 200).
     */
    async handleWebhook(
      method: ProviderMethod,
      rawBody: Buffer,
      headers: Record<string, string | string[] | undefined>,
    ): Promise<{ received: true; duplicate?: true }> {
      const drivers = await deps.payments.accounts.forWebhook(method);
      if (drivers.length === 0) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.notConfigured);
      const { driver, webhook } = await verifyWithAnyAccount(drivers, rawBody, headers);
      if (webhook.ignored) deps.log.warn({ provider: driver.name, eventId: webhook.id, eventType: webhook.type }, `webhook: ignored: ${webhook.ignored}`);
      const applied = await deps.db.transaction(async (trx) => {
        if (!(await billing.recordEvent({ id: webhook.id, provider: driver.name, type: webhook.type }, deps.clock(), trx))) return false;
        if (webhook.event) await applyEvent(webhook.event, trx);
        return true;
      });
      // Read in the version it needed (applied now or before): the versions refused until now are not what the endpoint sends.
      if (webhook.apiVersion) await deps.unreadable.clearSeenUntil(driver.name, deps.clock());
      return applied ? { received: true } : { received: true, duplicate: true };
    },
  };
}

export type PaymentWebhooksService = ReturnType<typeof createPaymentWebhooksService>;
