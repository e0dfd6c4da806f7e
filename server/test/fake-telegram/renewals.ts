// ---- Telegram renewing a Stars subscription (renewStarSubscription) ----
import { chargeIdOf, sendPaymentMessage, type Track } from './checkout.js';
import type { FakeStarRenewal, FakeStarRenewalOptions } from './handle-types.js';
import { storeStarPayment } from './payments.js';
import type { BotState, World } from './state.js';

/**
 * What Telegram does when a Stars subscription's period ends (Bot API documentation, "Payments in Telegram Stars" and
 * SuccessfulPayment): unless auto-renew was turned off, the user is charged the same amount again — a payment of its
 * own, with a new telegram_payment_charge_id, listed in the bot's Star transactions with the invoice's payload and
 * subscription_period — and the bot is sent a successful_payment message with is_recurring (not is_first_recurring)
 * and the new subscription_expiration_date, one period after the last (after the charge, when it is charged late). A
 * subscription turned off is not charged: it lapses, and is never charged again. When Telegram charges is the test's
 * to say (`date`, the period's end unless told); `deliver: false` records the charge and loses its update.
 */
export async function renewStarSubscription(
  world: World,
  bot: BotState,
  firstChargeId: string,
  options: FakeStarRenewalOptions,
  track: Track,
): Promise<FakeStarRenewal> {
  const subscription = bot.subscriptions.get(firstChargeId);
  if (!subscription) throw new Error(`fake Telegram: no subscription of bot @${bot.info.username} was started by the payment ${firstChargeId}`);
  if (subscription.lapsed) throw new Error(`fake Telegram: the subscription started by ${firstChargeId} has lapsed: Telegram charges it no more`);
  if (subscription.canceledByBot) {
    subscription.lapsed = true;
    return { renewed: false, chargeId: null, until: subscription.until, successfulPaymentUpdate: null };
  }
  const date = options.date ?? subscription.until;
  const payment = storeStarPayment(bot, {
    userId: subscription.userId,
    firstName: subscription.firstName,
    languageCode: subscription.languageCode,
    chargeId: chargeIdOf(),
    amount: subscription.amount,
    payload: subscription.payload,
    date,
    subscriptionPeriod: subscription.period,
  });
  subscription.until = Math.max(subscription.until, date) + subscription.period;
  const renewed = { renewed: true, chargeId: payment.chargeId, until: subscription.until };
  if (options.deliver === false) return { ...renewed, successfulPaymentUpdate: null };
  const sent = sendPaymentMessage(world, bot, payment, { first: false, until: subscription.until }, track);
  // A failed delivery is kept as getWebhookInfo's last error: the payment stands, as payInvoice's does.
  await sent.delivery?.catch(() => undefined);
  return { ...renewed, successfulPaymentUpdate: sent.update };
}
