// ---- what tests see ----

export interface FakeBotInfo {
  id: number;
  username: string;
  first_name: string;
  /** getMe's flags; BotFather's defaults for a new bot unless told (groups allowed, privacy mode on, no inline mode). */
  can_join_groups?: boolean;
  can_read_all_group_messages?: boolean;
  supports_inline_queries?: boolean;
}

export interface FakeTelegramCall {
  token: string;
  /** As sent (Telegram matches it case-insensitively; `callsTo` does too). */
  method: string;
  /** Arguments as parsed: JSON values as sent, form and query values as text, a file part as `FakeTelegramFile`. */
  params: Record<string, unknown>;
  /** Date.now() when it arrived. */
  at: number;
  /** A method the bot's server answered a webhook delivery with (Telegram carries those out, answering nobody). */
  viaWebhookReply?: boolean;
}

/** A multipart file part as recorded (an `attach://name` argument is replaced by the part it names). */
export interface FakeTelegramFile {
  filename: string;
  contentType: string;
  size: number;
}

export interface FakeTelegramFailure {
  error_code: number;
  description: string;
  parameters?: Record<string, unknown>;
}

export interface FakeTelegramWebhook {
  url: string;
  secretToken: string | null;
  /** null = Telegram's default set of update types. */
  allowedUpdates: string[] | null;
  maxConnections: number;
}

/** A message a bot sent or edited. */
export interface FakeTelegramSent {
  token: string;
  method: string;
  chatId: number | string;
  text?: string;
  caption?: string;
  replyMarkup?: unknown;
  params: Record<string, unknown>;
  /** The Message's message_id (absent for an inline message's edit). */
  messageId?: number;
}

export interface FakeStarPayment {
  userId: number;
  /** telegram_payment_charge_id (and the StarTransaction's id). */
  chargeId: string;
  amount: number;
  /** The invoice's payload (getStarTransactions lists no invoice_payload for an empty one, as the server does). */
  payload: string;
  /** Unix time of the payment. */
  date: number;
  /** The subscription's period in seconds (2592000), for a subscription invoice's payment. */
  subscriptionPeriod?: number;
  /** The payer's first name as Users show it; `User <id>` unless told (as getChatMember names a user). */
  firstName?: string;
}

/** recordStarPayment's argument: payload '' and date now unless told. */
export type FakeStarPaymentInput = Omit<FakeStarPayment, 'payload' | 'date'> & Partial<Pick<FakeStarPayment, 'payload' | 'date'>>;

/** What payInvoice is told: who pays which invoice (`link`, or `payload` of one the bot sent or made a link for). */
export interface FakeInvoicePayment {
  userId: number;
  /** `User <id>` unless told. */
  firstName?: string;
  /** The chat the successful_payment message is in; the user's private chat with the bot unless told. */
  chatId?: number;
  /** A link createInvoiceLink answered. */
  link?: string;
  /** The payload of an invoice of this bot (the latest with it), when no link is given. */
  payload?: string;
  /** The user's language_code in the Users the bot is sent. */
  languageCode?: string;
  /** How long the bot has to answer the pre-checkout query: Telegram's 10 seconds unless told (tests may shorten it). */
  answerWithinMs?: number;
  /** Unix time of the payment (its message's date, its Star transaction's, a subscription's start): now unless told. */
  date?: number;
}

export interface FakeInvoicePaymentOutcome {
  /** The bot answered the pre-checkout query with ok=true in time, and the payment was made. */
  approved: boolean;
  /** The bot's error_message when it answered ok=false. */
  errorMessage: string | null;
  /** The payment's telegram_payment_charge_id, when approved. */
  chargeId: string | null;
  /** The update carrying the successful_payment message (update_id included), as sent; deliver it again to model a redelivery. */
  successfulPaymentUpdate: Record<string, unknown> | null;
}

/** What renewStarSubscription is told: when Telegram charges (unix time; the period's end unless told), and whether the bot hears of it. */
export interface FakeStarRenewalOptions {
  date?: number;
  /** false: the charge is made and listed, but its successful_payment update is lost. */
  deliver?: boolean;
}

export interface FakeStarRenewal {
  /** false: auto-renew was off, so nothing was charged and the subscription lapsed. */
  renewed: boolean;
  /** The renewal's telegram_payment_charge_id. */
  chargeId: string | null;
  /** Unix time the subscription's paid period ends now (the renewal's subscription_expiration_date). */
  until: number;
  /** The update carrying its successful_payment message, as sent (null when not sent). */
  successfulPaymentUpdate: Record<string, unknown> | null;
}

/** A Stars subscription as Telegram keeps it (named by its first payment's charge id). */
export interface FakeStarSubscription {
  userId: number;
  payload: string;
  amount: number;
  /** Unix time its paid period ends. */
  until: number;
  /** The bot turned auto-renew off (editUserStarSubscription with is_canceled). */
  canceledByBot: boolean;
  /** A period ended without a charge: it is over. */
  lapsed: boolean;
}

export interface FakePreCheckoutAnswer {
  token: string;
  queryId: string;
  ok: boolean;
  errorMessage: string | null;
  /** When the query reached the bot (its delivery, or the getUpdates answer carrying it). */
  sentAt: number;
  answeredAt: number;
}

export interface FakeStarRefund {
  token: string;
  userId: number;
  chargeId: string;
  amount: number;
  at: number;
}

/** An invoice a bot sent (sendInvoice) or made a link for (createInvoiceLink). */
export interface FakeInvoice {
  token: string;
  method: 'sendInvoice' | 'createInvoiceLink';
  chatId: number | string | null;
  title: string;
  description: string;
  payload: string;
  currency: string;
  prices: Array<{ label: string; amount: number }>;
  subscriptionPeriod: number | null;
  link: string | null;
}

export interface FakeTelegram {
  /** The apiRoot to give grammY / TELEGRAM_API_URL: http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  /** A bot the fake knows; any other token gets Telegram's answer to an invalid token. Throws for a token Telegram could never issue. */
  addBot(token: string, info: FakeBotInfo): void;
  /** Every method call received, in order, whatever its answer. */
  calls: FakeTelegramCall[];
  callsTo(method: string, token?: string): FakeTelegramCall[];
  /** What setWebhook stored for the bot (null after deleteWebhook or before any). */
  webhookOf(token: string): FakeTelegramWebhook | null;
  /**
   * Sends `update` to the bot's webhook as Telegram does (POST JSON, X-Telegram-Bot-Api-Secret-Token when a secret was
   * set; update_id assigned when missing) and returns our server's answer. A non-2xx answer becomes getWebhookInfo's
   * last error; a method in a 2xx JSON answer is carried out as a webhook reply. Throws when no webhook is set, and
   * (after recording the error) when the connection fails or 10 s pass.
   */
  deliver(token: string, update: Record<string, unknown>): Promise<{ status: number; body: string }>;
  /** Queues an update for getUpdates (update_id assigned when missing); wakes a waiting long poll. */
  queueUpdate(token: string, update: Record<string, unknown>): void;
  /** The next call of `method` (any bot) fails with this answer, once, and does nothing. */
  failNext(method: string, failure: FakeTelegramFailure): void;
  /** The user blocked the bot: sending to this chat answers 403 "Forbidden: bot was blocked by the user". */
  blockChat(chatId: number): void;
  unblockChat(chatId: number): void;
  /** getChatMember(chat, user) answers this status; an unknown user of a known chat is 'left'; a chat never set is "chat not found". */
  setChatMember(chat: string | number, userId: number, status: string): void;
  /** Flood limits (off by default): `perSecond` sends a second per bot, 1 a second per chat after a burst of 3, setWebhook once a second. */
  limitSends(options: { perSecond: number } | null): void;
  /** Messages the bots sent or edited (sendMessage, sendPhoto, sendInvoice, editMessageText). */
  sent: FakeTelegramSent[];
  /**
   * A Telegram Stars payment the bot received, so refundStarPayment and getStarTransactions find it (no update is sent).
   * With `subscriptionPeriod` it starts a subscription (renewStarSubscription renews it), unless the user already has
   * one with the same payload.
   */
  recordStarPayment(token: string, payment: FakeStarPaymentInput): void;
  /**
   * Telegram renews the Stars subscription `firstChargeId` started, as its period ends: a new charge (listed in the bot's
   * Star transactions) and its successful_payment message; nothing when auto-renew was turned off (it lapses). Throws for
   * a subscription the fake does not know, or one that has lapsed.
   */
  renewStarSubscription(token: string, firstChargeId: string, options?: FakeStarRenewalOptions): Promise<FakeStarRenewal>;
  /** The Stars subscription `firstChargeId` started, as Telegram keeps it now (a copy), or null. */
  starSubscription(token: string, firstChargeId: string): FakeStarSubscription | null;
  /**
   * A user pays an invoice as Telegram carries it out: the bot is sent a pre_checkout_query (by its webhook when one is
   * set, else queued for getUpdates; not at all when its allowed_updates leave it out) and has `answerWithinMs` (10 s)
   * to answer it; on ok=true the Stars payment is made and the bot is sent the successful_payment message. Resolves when
   * the bot has answered (and the message was sent) or the time is up. Throws for an invoice the fake never made, one
   * not in Stars, and when the pre-checkout query's webhook delivery fails (recorded as getWebhookInfo's last error).
   */
  payInvoice(token: string, payment: FakeInvoicePayment): Promise<FakeInvoicePaymentOutcome>;
  preCheckoutAnswers: FakePreCheckoutAnswer[];
  refunds: FakeStarRefund[];
  invoices: FakeInvoice[];
  close(): Promise<void>;
}
