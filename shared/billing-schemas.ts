import { z } from 'zod';
import { REFUND_DESTINATIONS, REFUND_REASONS, SUBSCRIPTION_STATUSES, TRANSACTION_STATUSES } from './billing.js';

const Id = z.string().trim().min(1).max(64);

/**
 * How a customer pays: by card (Stripe), in crypto (the operator's BTCPay Server), by card or SBP in roubles
 * (YooKassa), in USDT, TON and other coins (Crypto Pay, the Telegram wallet's merchant API), in Telegram Stars (in
 * the bot only, at the plan's Stars price), or from their balance here (the wallet).
 */
export const PAYMENT_METHODS = ['card', 'crypto', 'yookassa', 'cryptopay', 'stars', 'wallet'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** How a transaction was settled: a payment method, or a gift code redeemed for it (nothing was paid). */
export const TRANSACTION_METHODS = [...PAYMENT_METHODS, 'gift_code'] as const;
export type TransactionMethod = (typeof TRANSACTION_METHODS)[number];
/** The methods a payment provider takes (all but the wallet, which is our own ledger). */
export type ProviderMethod = Exclude<PaymentMethod, 'wallet'>;
export const PROVIDER_METHODS = ['card', 'crypto', 'yookassa', 'cryptopay', 'stars'] as const satisfies readonly ProviderMethod[];
export const isProviderMethod = (method: PaymentMethod): method is ProviderMethod => method !== 'wallet';
/** What the site's checkout and top-ups take: every method but Telegram Stars, which Telegram sells inside the bot only. */
export const SITE_PAYMENT_METHODS = ['card', 'crypto', 'yookassa', 'cryptopay', 'wallet'] as const satisfies readonly PaymentMethod[];
export const SITE_PROVIDER_METHODS = ['card', 'crypto', 'yookassa', 'cryptopay'] as const satisfies readonly ProviderMethod[];
/** The currency of a payment in Telegram Stars (whole Stars, as Telegram's `XTR`). */
export const STARS_CURRENCY = 'xtr';

/** The provider name of Telegram Stars payments: its subscriptions are managed in Telegram itself, with no billing page of ours. */
export const STARS_PROVIDER_NAME = 'telegram_stars';
const Method = z.enum(SITE_PAYMENT_METHODS, { error: 'The payment method is "card", "crypto", "yookassa", "cryptopay" or "wallet"' }).optional();

/** `POST /api/checkout`: a plan to buy or an account to renew, by card when `method` is omitted. */
/** A promo code as typed (its checks are the server's: `promo_invalid` with the reason). */
const PromoCode = z
  .string()
  .trim()
  .max(40)
  .transform((code) => code || undefined)
  .optional();
export const CheckoutBody = z.union(
  [z.object({ planId: Id, method: Method, promoCode: PromoCode }).strict(), z.object({ accountId: Id, method: Method, promoCode: PromoCode }).strict()],
  { error: 'Send planId to buy a plan, or accountId to renew an account' },
);
export type CheckoutBody = z.infer<typeof CheckoutBody>;

/** A Stripe key: its prefix says which kind it is, so a key pasted into the wrong field is caught. */
const stripeKey = (prefixes: string[], label: string) =>
  z
    .string()
    .trim()
    .max(255)
    .refine((value) => prefixes.some((prefix) => value.startsWith(prefix)), `${label} starts with ${prefixes.join(' or ')}`)
    .refine((value) => /^[A-Za-z0-9_]+$/.test(value), `${label} has only letters, digits and _`);

/** `PUT /api/admin/payments/card`: omitted fields keep their value; `null` clears a key. */
export const UpdateCardPaymentBody = z
  .object({
    enabled: z.boolean(),
    publishableKey: stripeKey(['pk_'], 'The publishable key').nullable(),
    secretKey: stripeKey(['sk_', 'rk_'], 'The secret key').nullable(),
    webhookSecret: stripeKey(['whsec_'], 'The webhook signing secret').nullable(),
  })
  .partial()
  .strict();
export type UpdateCardPaymentBody = z.infer<typeof UpdateCardPaymentBody>;

/** `PUT /api/admin/payments/crypto` (BTCPay Server): omitted fields keep their value; `null` clears a secret. */
export const UpdateCryptoPaymentBody = z
  .object({
    enabled: z.boolean(),
    serverUrl: z
      .string()
      .trim()
      .max(500)
      .pipe(z.url({ protocol: /^https?$/, error: 'Enter your BTCPay Server address, e.g. https://btcpay.example.com' }))
      // Our API paths are joined to it: a query (?…) or fragment (#…) would swallow them and carry the key elsewhere.
      .refine((url) => !/[?#]/.test(url), 'Enter the address without ? or #, e.g. https://btcpay.example.com')
      .transform((url) => url.replace(/\/+$/, '')),
    storeId: z
      .string()
      .trim()
      .min(1, 'Enter the store id')
      .max(100)
      .regex(/^[A-Za-z0-9_-]+$/, 'The store id has only letters, digits, - and _'),
    apiKey: z.string().trim().min(1, 'Enter the API key').max(200).nullable(),
    webhookSecret: z.string().trim().min(1, 'Enter the webhook secret').max(200).nullable(),
    /** Offered first when higher than the card provider's (100). */
    priority: z.number().int().min(0).max(1000),
  })
  .partial()
  .strict();
export type UpdateCryptoPaymentBody = z.infer<typeof UpdateCryptoPaymentBody>;

/** The coins Crypto Pay takes that an admin may accept (its own list grows: these are the long-standing ones). */
export const CRYPTOPAY_ASSETS = ['USDT', 'TON', 'BTC', 'ETH', 'LTC', 'BNB', 'TRX', 'USDC', 'SOL'] as const;
export const CRYPTOPAY_DEFAULT_ASSETS: readonly string[] = ['USDT', 'TON'];
/** The fiat currencies a Crypto Pay invoice can be priced in (its documentation's list), lower-case as the store's currency is. */
export const CRYPTOPAY_FIATS: readonly string[] = [
  'usd',
  'eur',
  'rub',
  'byn',
  'uah',
  'gbp',
  'cny',
  'kzt',
  'uzs',
  'gel',
  'try',
  'amd',
  'thb',
  'inr',
  'brl',
  'idr',
  'azn',
  'aed',
  'pln',
  'ils',
  'kgs',
  'tjs',
];
/** YooKassa's currency for shops in Russia. */
export const YOOKASSA_CURRENCY = 'rub';

const Priority = z.number().int().min(0).max(1000);

/** `PUT /api/admin/payments/yookassa`: omitted fields keep their value; `null` clears the secret key. */
export const UpdateYookassaPaymentBody = z
  .object({
    enabled: z.boolean(),
    shopId: z
      .string()
      .trim()
      .regex(/^\d{1,12}$/, 'The shop id is the number in your YooKassa profile (shopId)'),
    secretKey: z
      .string()
      .trim()
      .max(200)
      .regex(/^(test|live)_[A-Za-z0-9_-]+$/, 'The secret key starts with live_ or test_')
      .nullable(),
    receipts: z
      .object({
        enabled: z.boolean(),
        vatCode: z.number().int().min(1, 'The VAT code is 1 to 12').max(12, 'The VAT code is 1 to 12'),
        taxSystemCode: z.number().int().min(1, 'The tax system code is 1 to 6').max(6, 'The tax system code is 1 to 6').nullable().default(null),
      })
      .strict(),
    priority: Priority,
  })
  .partial()
  .strict();
export type UpdateYookassaPaymentBody = z.infer<typeof UpdateYookassaPaymentBody>;

/** `PUT /api/admin/payments/cryptopay`: omitted fields keep their value; `null` clears the token. */
export const UpdateCryptopayPaymentBody = z
  .object({
    enabled: z.boolean(),
    apiToken: z
      .string()
      .trim()
      .max(200)
      .regex(/^\d+:[A-Za-z0-9_-]{10,}$/, 'The API token looks like 12345:AAzQcZWQ… (Crypto Pay → My Apps → API Token)')
      .nullable(),
    network: z.enum(['mainnet', 'testnet'], { error: 'The network is mainnet or testnet' }),
    assets: z
      .array(z.enum(CRYPTOPAY_ASSETS, { error: `The coins are among ${CRYPTOPAY_ASSETS.join(', ')}` }))
      .min(1, 'Accept at least one coin')
      .max(CRYPTOPAY_ASSETS.length)
      .transform((assets) => [...new Set(assets)]),
    priority: Priority,
  })
  .partial()
  .strict();
export type UpdateCryptopayPaymentBody = z.infer<typeof UpdateCryptopayPaymentBody>;

/** `POST /api/admin/transactions/:id/refund`: the whole remaining amount unless `amount` (cents) is given. */
export const RefundBody = z
  .object({
    amount: z
      .number({ error: "The amount is in the payment currency's minor units (cents)" })
      .int("The amount is a whole number of the payment currency's minor units (cents)")
      .positive('The amount must be more than 0')
      .optional(),
    reason: z.enum(REFUND_REASONS).default('requested_by_customer'),
    /** For the audit log and the operator's records; never sent to the provider. */
    note: z.string().trim().max(500).optional(),
    /** Made once per Refund dialog: the same request sent again (a double click, a retry) is the same refund. */
    requestId: z.uuid('The request id is a UUID').optional(),
    /**
     * Where the money goes: back through the provider that took it (the default where it can), into the customer's
     * wallet here (the default for Crypto Pay, which cannot refund), or paid back by hand outside the store (`note` says how).
     */
    destination: z.enum(REFUND_DESTINATIONS, { error: 'The refund goes to provider, wallet or manual' }).optional(),
  })
  .strict()
  .refine((body) => body.destination !== 'manual' || Boolean(body.note), { error: 'Say how it was paid back', path: ['note'] });
export type RefundBody = z.infer<typeof RefundBody>;

/** `GET /api/admin/transactions?status=&method=`: which transactions to list (`method`: how they were paid, or `gift_code`). */
export const AdminTransactionsQuery = z.object({
  status: z.enum(TRANSACTION_STATUSES).optional(),
  method: z.enum(TRANSACTION_METHODS).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** `GET /api/admin/payments/revenue?days=30`: money taken per provider and currency over the last `days` days. */
export const AdminRevenueQuery = z.object({
  days: z.coerce
    .number({ error: 'days is a whole number from 1 to 3660' })
    .int({ error: 'days is a whole number from 1 to 3660' })
    .min(1, { error: 'days is a whole number from 1 to 3660' })
    .max(3660, { error: 'days is a whole number from 1 to 3660' })
    .default(30),
});

/**
 * `GET /api/admin/subscriptions?status=&email=&unreadable=`: recurring subscriptions; `email` matches the start of
 * the customer's e-mail; `unreadable=true` keeps the live ones whose reads from the provider keep failing.
 */
export const AdminSubscriptionsQuery = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  email: z
    .string()
    .trim()
    .max(254)
    .optional()
    .transform((value) => value || undefined),
  unreadable: z
    .enum(['true', 'false'], { error: "unreadable is 'true' or 'false'" })
    .default('false')
    .transform((value) => value === 'true'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** `POST /api/admin/subscriptions/:id/cancel`. */
export const AdminCancelSubscriptionBody = z.object({ when: z.enum(['now', 'period_end'], { error: 'when is now or period_end' }) }).strict();
