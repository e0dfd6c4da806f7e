// ---- payments ----
import { argInt, argJson, argText, isObject, requiredArg } from './args.js';
import { resolveChat } from './chats.js';
import { badRequest } from './errors.js';
import { checkSendAllowed } from './flood.js';
import { inlineMarkup, readReplyMarkup, recordSent, storeMessage } from './messages.js';
import type { Params } from './params.js';
import { type MethodCall, type MethodResult, ok, randomId } from './state.js';

interface InvoiceInput {
  title: string;
  description: string;
  payload: string;
  currency: string;
  providerToken: string;
  startParameter: string;
  prices: Array<{ label: string; amount: number }>;
  maxTipAmount: number;
  subscriptionPeriod: number;
}

/** Client::get_labeled_price_part(s) (Client.cpp:9848-9882); field errors worded as td's JSON reader words them. */
function readPrices(params: Params): InvoiceInput['prices'] {
  requiredArg(params, 'prices');
  const value = argJson(params, 'prices', () => badRequest("Can't parse prices JSON object"));
  if (!Array.isArray(value)) throw badRequest('Expected an Array of labeled prices');
  const prices = value.map((price: unknown) => {
    const refuse = (why: string) => badRequest(`Can't parse labeled price: ${why}`);
    if (!isObject(price)) throw refuse('LabeledPrice must be an Object');
    if (price.label === undefined) throw refuse('Can\'t find field "label"');
    if (typeof price.label !== 'string') throw refuse('Field "label" must be of type String');
    if (price.label === '') throw refuse('LabeledPrice label must be non-empty');
    if (price.amount === undefined) throw refuse('Can\'t find field "amount"');
    const amount = typeof price.amount === 'string' && /^-?\d+$/.test(price.amount) ? Number(price.amount) : price.amount;
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) throw refuse('Field "amount" must be of type Number');
    return { label: price.label, amount };
  });
  if (prices.length === 0) throw badRequest('There must be at least one price');
  return prices;
}

/** Client::get_input_message_invoice (Client.cpp:11968-12045), in its order. */
function readInvoice(params: Params): InvoiceInput {
  const title = requiredArg(params, 'title');
  const description = requiredArg(params, 'description');
  const payload = requiredArg(params, 'payload');
  const providerToken = argText(params, 'provider_token');
  const startParameter = argText(params, 'start_parameter');
  const currency = requiredArg(params, 'currency');
  const prices = readPrices(params);
  const maxTip = argText(params, 'max_tip_amount');
  if (maxTip !== '' && !/^[+-]?\d+$/.test(maxTip)) throw badRequest('Can\'t parse "max_tip_amount" as Number');
  const subscriptionPeriod = argInt(params, 'subscription_period', 0, 0);
  return { title, description, payload, currency, providerToken, startParameter, prices, maxTipAmount: maxTip === '' ? 0 : Number(maxTip), subscriptionPeriod };
}

/**
 * What TDLib and Telegram's servers refuse once the Bot API server has read the invoice:
 * - "Total price must be positive": TDLib, td/telegram/InputInvoice.cpp (process_input_message_invoice);
 * - a payment in Telegram Stars (XTR) takes an empty provider_token, exactly one price and no tips (Bot API
 *   documentation, sendInvoice); Telegram refuses others with STARS_INVOICE_INVALID (the answer Bot API users report,
 *   e.g. go-telegram-bot-api#751);
 * - any other currency needs a payment provider's token: PAYMENT_PROVIDER_INVALID (rubenlagus/TelegramBots#1445);
 * - subscription_period "must always be 2592000 (30 days) if specified" and subscriptions are in Stars only (Bot API
 *   documentation, createInvoiceLink); the error's name, SUBSCRIPTION_PERIOD_INVALID, is MTProto's and unverified.
 */
function checkInvoice(invoice: InvoiceInput): void {
  if (invoice.prices.reduce((total, price) => total + price.amount, 0) <= 0) throw badRequest('Total price must be positive');
  if (invoice.currency === 'XTR') {
    if (invoice.providerToken !== '' || invoice.prices.length !== 1 || invoice.maxTipAmount > 0) throw badRequest('STARS_INVOICE_INVALID');
  } else if (invoice.providerToken === '') {
    throw badRequest('PAYMENT_PROVIDER_INVALID');
  }
  if (invoice.subscriptionPeriod !== 0 && (invoice.currency !== 'XTR' || invoice.subscriptionPeriod !== 2_592_000))
    throw badRequest('SUBSCRIPTION_PERIOD_INVALID');
}

function recordInvoice(call: MethodCall, invoice: InvoiceInput, chatId: number | null, link: string | null): void {
  const { title, description, payload, currency, prices } = invoice;
  const method = call.method.toLowerCase() === 'sendinvoice' ? 'sendInvoice' : 'createInvoiceLink';
  call.world.invoices.push({
    token: call.bot.token,
    method,
    chatId,
    title,
    description,
    payload,
    currency,
    prices,
    subscriptionPeriod: invoice.subscriptionPeriod || null,
    link,
  });
}

export function sendInvoice(call: MethodCall): MethodResult {
  const invoice = readInvoice(call.params);
  const replyMarkup = readReplyMarkup(call.params);
  const chat = resolveChat(call.world, call.params);
  checkInvoice(invoice);
  checkSendAllowed(call, chat);
  const total = invoice.prices.reduce((sum, price) => sum + price.amount, 0);
  const content = {
    invoice: {
      title: invoice.title,
      description: invoice.description,
      start_parameter: invoice.startParameter,
      currency: invoice.currency,
      total_amount: total,
    },
    ...inlineMarkup(replyMarkup),
  };
  const message = storeMessage(call, chat, 'invoice', content);
  recordInvoice(call, invoice, chat.id, null);
  recordSent(call, chat.id, { replyMarkup, messageId: message.message_id as number });
  return ok(message);
}

export function createInvoiceLink(call: MethodCall): MethodResult {
  const invoice = readInvoice(call.params);
  checkInvoice(invoice);
  const link = `https://t.me/$${randomId(15)}`;
  recordInvoice(call, invoice, null, link);
  return ok(link);
}
