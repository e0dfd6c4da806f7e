import { randomBytes } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `prefix` + `length` random letters and digits, like Stripe ids (`cs_test_a1B2…`, `evt_1Q…`, `req_…`). */
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = prefix;
  for (const byte of bytes) id += ALPHANUMERIC[byte % ALPHANUMERIC.length];
  return id;
}

/** Now, in the Unix seconds Stripe's `created` fields use. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
