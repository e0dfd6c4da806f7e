import { argBool, argText, argUserId, requiredArg } from './args.js';
import { badRequest, required, TEXT } from './errors.js';
import { type BotState, type MethodCall, type MethodResult, ok, type OpenQuery } from './state.js';

/** A query the bot was given, not yet answered and (for pre-checkout) within Telegram's 10 seconds; else QUERY_ID_INVALID. */
function takeQuery(bot: BotState, kind: OpenQuery['kind'], id: string, now: number): OpenQuery {
  const query = bot.queries.get(id);
  const expired = kind === 'pre_checkout_query' && query !== undefined && now - query.sentAt > 10_000;
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
  if (payment.refunded) throw badRequest('CHARGE_ALREADY_REFUNDED');
  payment.refunded = true;
  call.world.refunds.push({ token: bot.token, userId, chargeId, amount: payment.amount, at: now });
  return ok(true);
}
