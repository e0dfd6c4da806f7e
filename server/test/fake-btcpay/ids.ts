import { randomBytes } from 'node:crypto';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** `bytes` random bytes in Base58, as BTCPay makes its ids (invoices and deliveries: 16 bytes; pull payments: 20). */
export function base58Id(bytes = 16): string {
  let value = BigInt(`0x${randomBytes(bytes).toString('hex')}`);
  let id = '';
  while (value > 0n) {
    id = BASE58[Number(value % 58n)]! + id;
    value /= 58n;
  }
  return id.padStart(Math.ceil(bytes * 1.37), '1');
}

/** A regtest address the fake's invoices are paid to (shape only: nothing checks it). */
export const fakeAddress = (): string => `bcrt1q${randomBytes(20).toString('hex').slice(0, 38)}`;

/** A payment id as BTCPay names on-chain payments: `<txid>-<output index>`. */
export const fakePaymentId = (): string => `${randomBytes(32).toString('hex')}-0`;

/** Now, in the unix seconds every Greenfield time field uses. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
