import { z } from 'zod';

const Id = z.string().trim().min(1).max(64);

/** `POST /api/checkout`: exactly one of `planId` (a new purchase) or `accountId` (a renewal). */
export const CheckoutBody = z.union([
  z.object({ planId: Id }).strict(),
  z.object({ accountId: Id }).strict(),
], { error: 'Send planId to buy a plan, or accountId to renew an account' });
export type CheckoutBody = z.infer<typeof CheckoutBody>;

/** A Stripe key: its prefix says which kind it is, so a key pasted into the wrong field is caught. */
const stripeKey = (prefixes: string[], label: string) =>
  z.string().trim().max(255)
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
