import { argBool, argInt, argText, argUserId, requiredArg } from './args.js';
import { badRequest, required, TEXT } from './errors.js';
import {
  type BotState,
  type MethodCall,
  type MethodResult,
  ok,
  type OpenQuery,
  type StoredStarPayment,
  type StoredStarSubscription,
  unixTime,
} from './state.js';

/** Telegram's time to answer a pre-checkout query (Bot API documentation, answerPreCheckoutQuery: "within 10 seconds"). */
export const PRE_CHECKOUT_ANSWER_MS = 10_000;

/**
 * A query the bot was given, not yet answered and (for pre-checkout) in time: within 10 seconds of reaching the bot, or
 * before the deadline of the payInvoice that asked it; else QUERY_ID_INVALID.
 */
function takeQuery(bot: BotState, kind: OpenQuery['kind'], id: string, now: number): OpenQuery {
  const query = bot.queries.get(id);
  const checkout = bot.checkouts.get(id);
  const late = checkout ? now > checkout.deadline : query !== undefined && now - query.sentAt > PRE_CHECKOUT_ANSWER_MS;
  const expired = kind === 'pre_checkout_query' && query !== undefined && late;
  if (!query || query.kind !== kind || query.answered || expired) throw badRequest(TEXT.queryIdInvalid);
  query.answered = true;
  return query;
}

/** Client.cpp:14347-14358: ok read by to_bool; error_message required when it is false. */
export function answerPreCheckoutQuery(call: MethodCall): MethodResult {
  const { params, bot, now } = call;
  const queryId = argText(params, 'pre_checkout_query_id');
  const accepted = argBool(params, 'ok');
  const errorMessage = accepted ? '' : argText(params, 'error_message');
  if (!accepted && errorMessage === '') throw required('error_message');
  const query = takeQuery(bot, 'pre_checkout_query', queryId, now);
  call.world.preCheckoutAnswers.push({
    token: bot.token,
    queryId,
    ok: accepted,
    errorMessage: accepted ? null : errorMessage,
    sentAt: query.sentAt,
    answeredAt: now,
  });
  bot.checkouts.get(queryId)?.settle({ ok: accepted, errorMessage: accepted ? null : errorMessage });
  return ok(true);
}

export function answerCallbackQuery(call: MethodCall): MethodResult {
  takeQuery(call.bot, 'callback_query', argText(call.params, 'callback_query_id'), call.now);
  return ok(true);
}

/**
 * Client.cpp:13996-14006: user_id and telegram_payment_charge_id required, then Telegram's answer:
 * CHARGE_ALREADY_REFUNDED (MTProto's documented error for payments.refundStarsCharge, and what Bot API users see:
 * tdlib/telegram-bot-api#690). For a charge id Telegram does not know, the documentation names no error; this fake
 * answers CHARGE_NOT_FOUND (unverified).
 */
export function refundStarPayment(call: MethodCall): MethodResult {
  const { params, bot, now } = call;
  const userId = argUserId(params, 'user_id');
  const chargeId = requiredArg(params, 'telegram_payment_charge_id');
  const payment = bot.payments.get(chargeId);
  if (!payment || payment.userId !== userId) throw badRequest('CHARGE_NOT_FOUND');
  if (payment.refundedAt !== null) throw badRequest('CHARGE_ALREADY_REFUNDED');
  payment.refundedAt = now;
  bot.starLedger.push({ chargeId, refund: true });
  call.world.refunds.push({ token: bot.token, userId, chargeId, amount: payment.amount, at: now });
  return ok(true);
}

/** A Stars payment the bot received, in its ledger after those before it. */
export function storeStarPayment(bot: BotState, payment: Omit<StoredStarPayment, 'refundedAt' | 'ofUser'>): StoredStarPayment {
  if (bot.payments.has(payment.chargeId)) throw new Error(`fake Telegram: the bot already has a payment ${payment.chargeId}`);
  const ofUser = [...bot.payments.values()].filter((other) => other.userId === payment.userId).length + 1;
  const stored = { ...payment, refundedAt: null, ofUser };
  bot.payments.set(payment.chargeId, stored);
  bot.starLedger.push({ chargeId: payment.chargeId, refund: false });
  return stored;
}

/** The subscription a paid subscription invoice starts: its first period ends one period after the payment. */
export function startStarSubscription(bot: BotState, first: StoredStarPayment): StoredStarSubscription {
  const period = first.subscriptionPeriod;
  if (!period) throw new Error(`fake Telegram: the payment ${first.chargeId} is not a subscription's`);
  const subscription: StoredStarSubscription = {
    firstChargeId: first.chargeId,
    userId: first.userId,
    firstName: first.firstName,
    languageCode: first.languageCode,
    payload: first.payload,
    amount: first.amount,
    period,
    until: first.date + period,
    canceledByBot: false,
    lapsed: false,
  };
  bot.subscriptions.set(first.chargeId, subscription);
  return subscription;
}

/**
 * Client.cpp:14008-14020: user_id read by get_user_id, telegram_payment_charge_id as given (the server does not require
 * it), is_canceled by to_bool; then Telegram's answer. is_canceled=true: the subscription is not renewed when its
 * period ends ("the subscription must be active up to the end of the current subscription period"); false: "allow the
 * user to re-enable a subscription that was previously canceled by the bot" — the fake's user re-enables it at once, so
 * it renews again. A charge id that did not start a subscription of this user is CHARGE_ID_INVALID (MTProto's
 * documented error for payments.botCancelStarsSubscription, which the Bot API server calls through TDLib).
 */
export function editUserStarSubscription(call: MethodCall): MethodResult {
  const { params, bot } = call;
  const userId = argUserId(params, 'user_id');
  const chargeId = argText(params, 'telegram_payment_charge_id');
  const canceled = argBool(params, 'is_canceled');
  const subscription = bot.subscriptions.get(chargeId);
  if (!subscription || subscription.userId !== userId) throw badRequest('CHARGE_ID_INVALID');
  subscription.canceledByBot = canceled;
  return ok(true);
}

/** A User the Bot API server knows from an update: Client::JsonUser (Client.cpp:459-503), in its order. */
export function payerUser(payment: Pick<StoredStarPayment, 'userId' | 'firstName' | 'languageCode'>): Record<string, unknown> {
  return {
    id: payment.userId,
    is_bot: false,
    first_name: payment.firstName,
    ...(payment.languageCode !== null ? { language_code: payment.languageCode } : {}),
  };
}

/**
 * TransactionPartnerUser of an invoice payment: Client::JsonStarTransactionType, starTransactionTypeBotInvoiceSale and
 * starTransactionTypeBotSubscriptionSale (Client.cpp:5767-5805), in its order; an empty payload is left out.
 */
function invoicePartner(payment: StoredStarPayment): Record<string, unknown> {
  return {
    transaction_type: 'invoice_payment',
    type: 'user',
    user: payerUser(payment),
    ...(payment.payload !== '' ? { invoice_payload: payment.payload } : {}),
    ...(payment.subscriptionPeriod ? { subscription_period: payment.subscriptionPeriod } : {}),
  };
}

/**
 * Client::JsonStarTransaction (Client.cpp:5879-5906): id, date, `source` for a positive amount or `receiver` for a
 * negative one, then the amount without its sign. A refund is its own transaction with the payment's id (StarTransaction:
 * "Coincides with the identifier of the original transaction for refund transactions"); TDLib gives it the payment's
 * type, its amount negative (td/telegram/StarManager.cpp:315-316, is_purchase = amount.is_positive() == is_refund, so a
 * refunded sale stays a sale), so it lists the same partner as `receiver`.
 */
function starTransaction(payment: StoredStarPayment, refund: boolean): Record<string, unknown> {
  const date = refund ? unixTime(payment.refundedAt!) : payment.date;
  return { id: payment.chargeId, date, [refund ? 'receiver' : 'source']: invoicePartner(payment), amount: payment.amount };
}

/**
 * getStarTransactions (Client.cpp:13987-13994): offset and limit read by get_integer_arg, which clamps (offset at least
 * 0; limit 1..100, default 100), so no value is refused. Oldest first: the documentation says "in chronological order",
 * and TDLib asks Telegram for them ascending when it runs a bot (td/telegram/StarManager.cpp:183,
 * GetStarsTransactionsQuery: `bool ascending = td_->auth_manager_->is_bot()`; MTProto payments.getStarsTransactions:
 * "ascending: Return transactions in ascending order by date"). Transactions of the same second keep the order they
 * happened in; one recorded with an earlier date goes before later ones.
 */
export function getStarTransactions(call: MethodCall): MethodResult {
  const { bot, params } = call;
  const offset = argInt(params, 'offset', 0, 0);
  const limit = argInt(params, 'limit', 100, 1, 100);
  const transactions = bot.starLedger
    .map(({ chargeId, refund }) => starTransaction(bot.payments.get(chargeId)!, refund))
    .sort((a, b) => (a.date as number) - (b.date as number));
  return ok({ transactions: transactions.slice(offset, offset + limit) });
}
