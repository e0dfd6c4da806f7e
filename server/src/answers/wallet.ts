import { z } from 'zod';
import { PAYMENT_METHODS } from '../../../shared/billing-schemas.js';
import { WALLET_MOVEMENT_KINDS, type AdminWallet, type TopUpStarted, type Wallet, type WalletMovement } from '../../../shared/wallet.js';

/**
 * What the wallet routes answer: the customer's wallet (balance, pending rewards, latest movements, how to top it
 * up), a started top-up, and the admin's view of a customer's wallet, checked against the shared types. Amounts
 * are integer minor units of their currency; times are ISO strings. Auto-renew answers the account
 * (accounts.ts).
 */

/** A minor-units amount. */
const Amount = z.number().int();

const WalletMovementAnswer = z.object({
  id: z.string(),
  kind: z.enum(WALLET_MOVEMENT_KINDS),
  /** Signed: what it added to the balance. */
  amount: Amount,
  currency: z.string(),
  createdAt: z.string(),
  availableAt: z.string(),
  note: z.string().nullable(),
}) satisfies z.ZodType<WalletMovement>;

/** What the customer's and the admin's views share. */
const walletFields = {
  currency: z.string(),
  balance: Amount,
  pending: Amount,
  /** Newest first. */
  movements: z.array(WalletMovementAnswer),
};

/** `GET /api/wallet`. */
export const WalletAnswer = z.object({
  ...walletFields,
  /** null while no way to top up is on. */
  topUp: z.object({ methods: z.array(z.enum(PAYMENT_METHODS)), min: Amount, max: Amount }).nullable(),
}) satisfies z.ZodType<Wallet>;

/** `POST /api/wallet/top-up`: send the browser to the provider's page. */
export const TopUpStartedAnswer = z.object({ url: z.string(), sessionId: z.string() }) satisfies z.ZodType<TopUpStarted>;

/** `GET`/`POST /api/admin/users/:id/wallet`: a customer's wallet as the admin sees it (after the adjustment). */
export const AdminWalletAnswer = z.object({ userId: z.string(), ...walletFields }) satisfies z.ZodType<AdminWallet>;
