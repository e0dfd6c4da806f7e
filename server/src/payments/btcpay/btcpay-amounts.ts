/**
 * Money between our integer minor units and BTCPay's decimal strings ("9.99"), without floating point
 * where it is money we book: the invoice amount and refunds are exact, with the decimals of the store's
 * currency table (shared/currencies.ts: JPY 0, KWD 3); only the crypto progress of an open invoice (see
 * cryptoProgress in btcpay-events.ts) is converted at a rate.
 */
export { decimalToMinor, minorToDecimal } from '../../../../shared/money.js';
