/**
 * What paying an invoice in one asset comes to, at the fake's fixed rates (currencies.ts): the amount, the
 * fiat rate, Crypto Pay's 3 % fee and the USD figures a paid invoice carries.
 */
import { divide, fixed, formatFixed, multiply, parseFixed, type Fixed } from './amounts.js';
import { assetPerUsd, assetPlaces, FEE_RATE, fiatPerUsd, isFiat } from './currencies.js';
import type { InvoiceRequest } from './invoice-request.js';

export interface PaymentRecord {
  asset: string;
  /** paid_amount. */
  amount: string;
  /** paid_fiat_rate: units of the invoice's fiat per one unit of the asset (fiat invoices only). */
  fiatRate?: string;
  feeAmount: string;
  feeInUsd: string;
  /** paid_usd_rate: USD per one unit of the asset. */
  usdRate: string;
  /** Unix ms. */
  paidAt: number;
}

/** Rates and fees keep 8 places, as the real payloads do ("94.223484", "0.07800192"). */
const RATE_PLACES = 8;

function amountDue(request: InvoiceRequest, asset: string): { amount: Fixed; fiatRate?: Fixed } {
  const amount = parseFixed(request.amount)!;
  if (request.currencyType === 'crypto' || !request.fiat || !isFiat(request.fiat)) return { amount };
  const perUsd = fiatPerUsd(request.fiat);
  return { amount: divide(multiply(amount, assetPerUsd(asset)), perUsd), fiatRate: divide(perUsd, assetPerUsd(asset)) };
}

/** What the invoice costs in `asset` ("9.99" USD → "49.95" TON…), rounded up so it is never under-paid. */
export function priceIn(request: InvoiceRequest, asset: string): string {
  const { amount } = amountDue(request, asset);
  return request.currencyType === 'crypto' ? formatFixed(amount, 18) : formatFixed(amount, assetPlaces(asset), 'up');
}

/** The payment of the whole invoice in `asset` at `now`. */
export function paymentFor(request: InvoiceRequest, asset: string, now: number): PaymentRecord {
  const { fiatRate } = amountDue(request, asset);
  const amount = priceIn(request, asset);
  const fee = multiply(fixed(amount), FEE_RATE);
  const usdRate = divide(fixed('1'), assetPerUsd(asset));
  return {
    asset,
    amount,
    ...(fiatRate === undefined ? {} : { fiatRate: formatFixed(fiatRate, RATE_PLACES) }),
    feeAmount: formatFixed(fee, RATE_PLACES),
    feeInUsd: formatFixed(multiply(fee, usdRate), RATE_PLACES),
    usdRate: formatFixed(usdRate, RATE_PLACES),
    paidAt: now,
  };
}
