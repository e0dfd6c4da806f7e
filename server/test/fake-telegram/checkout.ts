// ---- a user paying an invoice (payInvoice) ----
import { randomBytes } from 'node:crypto';
import { resolveChat } from './chats.js';
import { deliverUpdate } from './deliver.js';
import type { FakeInvoice, FakeInvoicePayment, FakeInvoicePaymentOutcome } from './handle-types.js';
import { payerUser, PRE_CHECKOUT_ANSWER_MS, startStarSubscription, storeStarPayment } from './payments.js';
import { type BotState, chatKey, type PendingCheckout, randomId, type StoredStarPayment, unixTime, type World } from './state.js';
import { stampUpdate } from './updates.js';

/** Keeps work the fake started until close() (a delivery may outlive the payInvoice that started it). */
export type Track = <T>(work: Promise<T>) => Promise<T>;

type Payer = Pick<StoredStarPayment, 'userId' | 'firstName' | 'languageCode'>;
type Answer = { ok: boolean; errorMessage: string | null } | null;

/** The invoice named by its link, else the bot's latest with the payload; anything else is the test's mistake. */
function findInvoice(world: World, bot: BotState, payment: FakeInvoicePayment): FakeInvoice {
  const { link, payload } = payment;
  if (link === undefined && payload === undefined) throw new Error('fake Telegram: payInvoice needs the link or the payload of an invoice');
  const mine = world.invoices.filter((invoice) => invoice.token === bot.token);
  const invoice = link !== undefined ? mine.find((candidate) => candidate.link === link) : mine.findLast((candidate) => candidate.payload === payload);
  if (!invoice)
    throw new Error(`fake Telegram: bot @${bot.info.username} made no invoice ${link !== undefined ? `link ${link}` : `with the payload ${payload}`}`);
  if (payload !== undefined && invoice.payload !== payload)
    throw new Error(`fake Telegram: the invoice link ${link} has the payload ${invoice.payload}, not ${payload}`);
  if (invoice.currency !== 'XTR') throw new Error(`fake Telegram: payInvoice pays invoices in Telegram Stars (XTR), not ${invoice.currency}`);
  return invoice;
}

/** A pre-checkout query's id: the decimal text of TDLib's int64 query id (JsonPreCheckoutQuery, Client.cpp:4977). */
const queryIdOf = () => BigInt.asUintN(63, randomBytes(8).readBigUInt64BE()).toString();

/** A telegram_payment_charge_id shaped as Telegram's for Stars: "stx" and 104 base64url characters (as seen in updates bots log). */
export const chargeIdOf = () => `stx${randomId(78)}`;

/**
 * An update sent as the Bot API server sends it: not at all when the bot's allowed_updates leave its type out
 * (Client::add_update_impl, Client.cpp:16971-16975), else to the webhook when one is set, else into the getUpdates queue.
 */
export function sendUpdate(world: World, bot: BotState, update: Record<string, unknown>, kind: string, track: Track) {
  const stamped = stampUpdate(bot, update);
  if (bot.allowedUpdates !== null && !bot.allowedUpdates.includes(kind)) return { update: stamped, delivery: null };
  if (bot.webhook) return { update: stamped, delivery: track(deliverUpdate(world, bot, stamped)) };
  bot.queue.push(stamped);
  bot.longPoll?.wake();
  return { update: stamped, delivery: null };
}

/** Waits for the bot's answer to the query until the deadline (or the fake's close); an answer after that is refused. */
function awaitAnswer(world: World, bot: BotState, queryId: string, withinMs: number): { answer: Promise<Answer>; giveUp(): void } {
  let finish: (answer: Answer) => void = () => undefined;
  const answer = new Promise<Answer>((resolve) => {
    const checkout: PendingCheckout = { deadline: Date.now() + withinMs, settle: (given) => finish(given) };
    const timer = setTimeout(() => finish(null), withinMs);
    const onClose = () => finish(null);
    world.shutdown.signal.addEventListener('abort', onClose, { once: true });
    finish = (given) => {
      clearTimeout(timer);
      world.shutdown.signal.removeEventListener('abort', onClose);
      if (given === null) checkout.deadline = -Infinity; // too late from now on, whatever the clock says
      resolve(given);
    };
    bot.checkouts.set(queryId, checkout);
  });
  return { answer, giveUp: () => finish(null) };
}

/** The chat of the successful_payment message: the user's private chat (Client::JsonChat, Client.cpp:1197-1210), or the one told. */
export function paymentChat(world: World, payer: Payer, chatId: number): Record<string, unknown> {
  if (chatId === payer.userId) return { id: chatId, first_name: payer.firstName, type: 'private' };
  return resolveChat(world, { chat_id: String(chatId) }).object;
}

/**
 * SuccessfulPayment as Client::JsonSuccessfulPaymentBot writes it (Client.cpp:3033-3069), in its order. A
 * subscription's payment has is_recurring, its first also is_first_recurring, and subscription_expiration_date the end
 * of the period it paid (Bot API documentation, SuccessfulPayment). provider_payment_charge_id of a Stars payment: the
 * documentation says only "Provider payment identifier"; updates bots have logged show `<user id>_<n>` (e.g.
 * '7130021259_1'), which the fake imitates with n counting the user's payments to the bot (the counter is a guess).
 */
function successfulPayment(payment: StoredStarPayment, subscription: { first: boolean; until: number } | null): Record<string, unknown> {
  return {
    currency: 'XTR',
    total_amount: payment.amount,
    invoice_payload: payment.payload,
    telegram_payment_charge_id: payment.chargeId,
    provider_payment_charge_id: `${payment.userId}_${payment.ofUser}`,
    ...(subscription
      ? { is_recurring: true, ...(subscription.first ? { is_first_recurring: true } : {}), subscription_expiration_date: subscription.until }
      : {}),
  };
}

/** The successful_payment message of a payment the bot received, in the payer's chat (or the one told), sent as Telegram sends it. */
export function sendPaymentMessage(
  world: World,
  bot: BotState,
  payment: StoredStarPayment,
  subscription: { first: boolean; until: number } | null,
  track: Track,
  chatId = payment.userId,
) {
  const chat = paymentChat(world, payment, chatId);
  const message = {
    message_id: (bot.lastMessageId.get(chatKey(chat.id as number)) ?? 0) + 1,
    from: payerUser(payment),
    chat,
    date: payment.date,
    successful_payment: successfulPayment(payment, subscription),
  };
  return sendUpdate(world, bot, { message }, 'message', track);
}

/**
 * payInvoice: what Telegram does when a user pays an invoice in Stars. The pre_checkout_query (PreCheckoutQuery as
 * Client::JsonPreCheckoutQuery writes it, Client.cpp:4969-4998) goes to the bot, which must answer it in time
 * (answerPreCheckoutQuery: "the Bot API must receive an answer within 10 seconds after the pre-checkout query was sent");
 * the window runs from when the query is sent, however it reaches the bot. On ok=true the payment is made and the bot
 * is sent a message with successful_payment ("Once the user has paid, the bot receives a message with the
 * successful_payment field", Bot API documentation, "Payments in Telegram Stars").
 */
export async function payInvoice(world: World, bot: BotState, payment: FakeInvoicePayment, track: Track): Promise<FakeInvoicePaymentOutcome> {
  const invoice = findInvoice(world, bot, payment);
  const withinMs = payment.answerWithinMs ?? PRE_CHECKOUT_ANSWER_MS;
  if (!Number.isFinite(withinMs) || withinMs < 0) throw new Error('fake Telegram: answerWithinMs must be a number of milliseconds');
  const payer: Payer = { userId: payment.userId, firstName: payment.firstName ?? `User ${payment.userId}`, languageCode: payment.languageCode ?? null };
  const total = invoice.prices.reduce((sum, price) => sum + price.amount, 0);

  const queryId = queryIdOf();
  const { answer, giveUp } = awaitAnswer(world, bot, queryId, withinMs);
  const query = { id: queryId, from: payerUser(payer), currency: invoice.currency, total_amount: total, invoice_payload: invoice.payload };
  const { delivery } = sendUpdate(world, bot, { pre_checkout_query: query }, 'pre_checkout_query', track);
  let given: Answer;
  try {
    // A failed delivery ends the wait with its error; a delivery still under way when the answer comes is not waited for.
    given = delivery ? await Promise.race([answer, delivery.then(() => answer)]) : await answer;
  } catch (error) {
    giveUp();
    throw error;
  }
  if (given === null || !given.ok) return { approved: false, errorMessage: given?.errorMessage ?? null, chargeId: null, successfulPaymentUpdate: null };

  const stored = storeStarPayment(bot, {
    ...payer,
    chargeId: chargeIdOf(),
    amount: total,
    payload: invoice.payload,
    date: payment.date ?? unixTime(Date.now()),
    subscriptionPeriod: invoice.subscriptionPeriod,
  });
  // An invoice with subscription_period starts a subscription: Telegram charges it again every period (renewals.ts).
  const subscription = invoice.subscriptionPeriod ? startStarSubscription(bot, stored) : null;
  const sent = sendPaymentMessage(world, bot, stored, subscription && { first: true, until: subscription.until }, track, payment.chatId);
  // A failed delivery is kept as getWebhookInfo's last error (Telegram would deliver it again later): the payment stands.
  await sent.delivery?.catch(() => undefined);
  return { approved: true, errorMessage: null, chargeId: stored.chargeId, successfulPaymentUpdate: sent.update };
}
