import { z } from 'zod';
import type {
  CardPaymentSettings,
  CryptopayPaymentSettings,
  CryptoPaymentSettings,
  EndAccountSubscriptionsResult,
  ProviderAccountSummary,
  YookassaPaymentSettings,
} from '../../../shared/billing.js';
import { PROVIDER_METHODS } from '../../../shared/billing-schemas.js';

/**
 * What the admin's payment provider routes answer: each provider's settings (GET, and PUT's saved result; the
 * secrets are write-only, only whether each is set comes back) and the provider accounts that took payments. Each
 * is checked against the shared type its service returns.
 */

const Int = z.number().int();

/** Where a key comes from: the admin's settings, an environment variable that overrides them, or nowhere yet. */
const KeySourceAnswer = z.enum(['settings', 'env']).nullable();

/** `GET/PUT /api/admin/payments/card` (Stripe). */
export const CardPaymentSettingsAnswer = z.object({
  enabled: z.boolean(),
  publishableKey: z.string().nullable(),
  secretKeySet: z.boolean(),
  webhookSecretSet: z.boolean(),
  sources: z.object({ publishableKey: KeySourceAnswer, secretKey: KeySourceAnswer, webhookSecret: KeySourceAnswer }),
  webhookUrl: z.string(),
}) satisfies z.ZodType<CardPaymentSettings>;

/** `GET/PUT /api/admin/payments/crypto` (the operator's BTCPay Server store). */
export const CryptoPaymentSettingsAnswer = z.object({
  enabled: z.boolean(),
  serverUrl: z.string().nullable(),
  storeId: z.string().nullable(),
  apiKeySet: z.boolean(),
  webhookSecretSet: z.boolean(),
  priority: Int,
  webhookUrl: z.string(),
}) satisfies z.ZodType<CryptoPaymentSettings>;

/** `GET/PUT /api/admin/payments/yookassa`. */
export const YookassaPaymentSettingsAnswer = z.object({
  enabled: z.boolean(),
  shopId: z.string().nullable(),
  secretKeySet: z.boolean(),
  receipts: z.object({ enabled: z.boolean(), vatCode: Int, taxSystemCode: Int.nullable() }),
  priority: Int,
  webhookUrl: z.string(),
  currencySupported: z.boolean(),
  shop: z.object({ test: z.boolean(), fiscalization: z.boolean() }).nullable(),
}) satisfies z.ZodType<YookassaPaymentSettings>;

/** `GET/PUT /api/admin/payments/cryptopay` (the Crypto Pay app). */
export const CryptopayPaymentSettingsAnswer = z.object({
  enabled: z.boolean(),
  network: z.enum(['mainnet', 'testnet']),
  apiTokenSet: z.boolean(),
  assets: z.array(z.string()),
  priority: Int,
  webhookUrl: z.string(),
  currencySupported: z.boolean(),
  appName: z.string().nullable(),
}) satisfies z.ZodType<CryptopayPaymentSettings>;

/** `GET /api/admin/payments/accounts` (each): a provider account that took payments. */
export const ProviderAccountAnswer = z.object({
  id: z.string(),
  method: z.enum(PROVIDER_METHODS),
  account: z.string(),
  inForce: z.boolean(),
  liveSubscriptions: Int,
  renewingSubscriptions: Int,
}) satisfies z.ZodType<ProviderAccountSummary>;

/** `POST /api/admin/payments/accounts/:id/end-subscriptions`: the account now, and how many were ended or not answered for. */
export const EndAccountSubscriptionsAnswer = z.object({
  account: ProviderAccountAnswer,
  ended: Int,
  failed: Int,
}) satisfies z.ZodType<EndAccountSubscriptionsResult>;
