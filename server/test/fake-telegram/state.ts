// ---- the fake's state ----
import { randomBytes, randomInt } from 'node:crypto';
import type { Socket } from 'node:net';
import type { TelegramError } from './errors.js';
import type {
  FakeBotInfo,
  FakeInvoice,
  FakePreCheckoutAnswer,
  FakeStarRefund,
  FakeTelegramCall,
  FakeTelegramFailure,
  FakeTelegramSent,
} from './handle-types.js';
import type { Params } from './params.js';

export interface StoredMessage {
  kind: 'text' | 'photo' | 'invoice';
  message: Record<string, unknown>;
}

export interface OpenQuery {
  kind: 'callback_query' | 'pre_checkout_query';
  sentAt: number;
  answered: boolean;
}

/** A Telegram Stars payment as the fake keeps it (recordStarPayment's defaults filled in). */
export interface StoredStarPayment {
  userId: number;
  chargeId: string;
  amount: number;
  payload: string;
  /** Unix time of the payment. */
  date: number;
  subscriptionPeriod: number | null;
  firstName: string;
  languageCode: string | null;
  /** Date.now() of its refund (refundStarPayment), or null. */
  refundedAt: number | null;
  /** How many payments the user had made to the bot with this one (provider_payment_charge_id's counter). */
  ofUser: number;
}

/**
 * A Telegram Stars subscription, from the payment that started it (a paid invoice with subscription_period) to its last
 * renewal: named by that first payment's charge id, as editUserStarSubscription names it.
 */
export interface StoredStarSubscription {
  firstChargeId: string;
  userId: number;
  firstName: string;
  languageCode: string | null;
  payload: string;
  amount: number;
  period: number;
  /** Unix time its paid period ends (the last subscription_expiration_date). */
  until: number;
  /** The bot turned auto-renew off (editUserStarSubscription, is_canceled): it is not charged again. */
  canceledByBot: boolean;
  /** A period ended without a charge (turned off): it is over, and never charged again. */
  lapsed: boolean;
}

/** A pre-checkout query payInvoice sent: answerable until `deadline`; `settle` hands the bot's answer to the payer. */
export interface PendingCheckout {
  deadline: number;
  settle(answer: { ok: boolean; errorMessage: string | null }): void;
}

export interface LongPoll {
  wake(): void;
  abort(error: TelegramError | null): void;
}

export interface BotState {
  token: string;
  info: FakeBotInfo;
  webhook: { url: string; secretToken: string; maxConnections: number; hasCertificate: boolean } | null;
  allowedUpdates: string[] | null;
  lastError: { date: number; message: string } | null;
  queue: Array<Record<string, unknown> & { update_id: number }>;
  nextUpdateId: number;
  longPoll: LongPoll | null;
  messages: Map<string, StoredMessage>;
  lastMessageId: Map<string, number>;
  commands: Map<string, unknown[]>;
  menuButtons: Map<string, Record<string, unknown>>;
  queries: Map<string, OpenQuery>;
  payments: Map<string, StoredStarPayment>;
  /** The Stars subscriptions users took with the bot's invoices, by their first payment's charge id. */
  subscriptions: Map<string, StoredStarSubscription>;
  /** The bot's Star transactions as they happened: each payment, and each refund of one. */
  starLedger: Array<{ chargeId: string; refund: boolean }>;
  checkouts: Map<string, PendingCheckout>;
  photos: Map<string, Record<string, unknown>>;
  sendTimes: number[];
  chatBuckets: Map<string, { tokens: number; at: number }>;
  lastSetWebhookAt: number;
}

export interface World {
  bots: Map<string, BotState>;
  calls: FakeTelegramCall[];
  sent: FakeTelegramSent[];
  invoices: FakeInvoice[];
  preCheckoutAnswers: FakePreCheckoutAnswer[];
  refunds: FakeStarRefund[];
  failures: Array<{ method: string; failure: FakeTelegramFailure }>;
  blocked: Set<string>;
  members: Map<string, Map<number, string>>;
  channelIds: Map<string, number>;
  limits: { perSecond: number } | null;
  shutdown: AbortController;
}

/** One method call being answered. */
export interface MethodCall {
  world: World;
  bot: BotState;
  params: Params;
  /** The arguments as recorded in `calls` (what `sent` keeps). */
  recorded: Params;
  /** As sent. */
  method: string;
  now: number;
  socket: Socket | null;
}

export interface MethodResult {
  result: unknown;
  description?: string;
}

export type MethodHandler = (call: MethodCall) => MethodResult | Promise<MethodResult>;

export const ok = (result: unknown, description?: string): MethodResult => ({ result, description });
export const unixTime = (ms: number) => Math.floor(ms / 1000);
export const randomId = (bytes: number) => randomBytes(bytes).toString('base64url');

/** A chat as the fake keys it: the number's text, or a lower-cased @username. */
export function chatKey(chat: string | number): string {
  const text = String(chat).trim();
  if (text.startsWith('@')) return text.toLowerCase();
  return /^-?\d+$/.test(text) ? String(Number(text)) : text;
}

export function botUser(bot: BotState): Record<string, unknown> {
  return { id: bot.info.id, is_bot: true, first_name: bot.info.first_name, username: bot.info.username };
}

export function newBot(token: string, info: FakeBotInfo): BotState {
  return {
    token,
    info: { ...info },
    webhook: null,
    allowedUpdates: null,
    lastError: null,
    queue: [],
    nextUpdateId: randomInt(100_000_000, 900_000_000),
    longPoll: null,
    messages: new Map(),
    lastMessageId: new Map(),
    commands: new Map(),
    menuButtons: new Map(),
    queries: new Map(),
    payments: new Map(),
    subscriptions: new Map(),
    starLedger: [],
    checkouts: new Map(),
    photos: new Map(),
    sendTimes: [],
    chatBuckets: new Map(),
    lastSetWebhookAt: 0,
  };
}
