/**
 * A local stand-in for the parts of Crypto Pay (@CryptoBot's merchant API) this project uses, for tests and
 * local demos: point the Crypto Pay driver's API address at `fake.url`.
 */
export { startFakeCryptopay } from './fake-cryptopay.js';
export type { DeliveryResult, FakeCryptopay, FakeCryptopayDelivery, FakeCryptopayOptions, FakeCryptopayRequest } from './handle-types.js';
export type { CryptopayErrorBody } from './http.js';
export type { CryptopayInvoice, InvoiceStatus } from './invoice-object.js';
export type { CryptopayUpdate } from './webhooks.js';
export { signBody, SIGNATURE_HEADER, WEBHOOK_HEADERS } from './webhooks.js';
export { ASSET_RATES_PER_USD, FIAT_RATES_PER_USD, FEE_PERCENT } from './currencies.js';
