/**
 * The Invoice object as the API writes it: ids are numbers; amounts, rates and fees strings; dates ISO
 * 8601 with milliseconds; a field that does not apply is left out, never null. Keys come in the order of
 * the real payloads.
 */
import type { InvoiceRecord } from './invoices.js';
import { statusOf } from './invoices.js';

export type InvoiceStatus = 'active' | 'paid' | 'expired';

export interface CryptopayInvoice {
  invoice_id: number;
  hash: string;
  currency_type: 'crypto' | 'fiat';
  asset?: string;
  fiat?: string;
  amount: string;
  paid_asset?: string;
  paid_amount?: string;
  paid_fiat_rate?: string;
  accepted_assets?: string[];
  fee_asset?: string;
  fee_amount?: string;
  /** Deprecated twin of fee_amount; only in a webhook's payload. */
  fee?: string;
  fee_in_usd?: string;
  /** Deprecated twin of bot_invoice_url, still sent. */
  pay_url: string;
  bot_invoice_url: string;
  mini_app_invoice_url: string;
  /** The fake's own invoice page (the real one is on app.send.tg). */
  web_app_invoice_url: string;
  description?: string;
  status: InvoiceStatus;
  swap_to?: string;
  created_at: string;
  allow_comments: boolean;
  allow_anonymous: boolean;
  expiration_date?: string;
  paid_usd_rate?: string;
  /** Deprecated twin of paid_usd_rate; only in a webhook's payload. */
  usd_rate?: string;
  paid_at?: string;
  paid_anonymously?: boolean;
  hidden_message?: string;
  payload?: string;
  paid_btn_name?: string;
  paid_btn_url?: string;
}

/** Where an invoice's links point. */
export interface InvoiceLinks {
  /** CryptoBot on mainnet, CryptoTestnetBot on testnet. */
  botUsername: string;
  /** The fake's page for the invoice (`${url}/invoices/<hash>`). */
  pageUrl(hash: string): string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The invoice as getInvoices answers it; `webhook: true` adds the deprecated fields a webhook's payload still has (REAL-1). */
export function invoiceObject(record: InvoiceRecord, links: InvoiceLinks, options: { webhook?: boolean; now?: number } = {}): CryptopayInvoice {
  const { request, payment } = record;
  const botUrl = `https://t.me/${links.botUsername}?start=${record.hash}`;
  const fields: Record<string, unknown> = {
    invoice_id: record.id,
    hash: record.hash,
    currency_type: request.currencyType,
    asset: request.asset,
    fiat: request.fiat,
    amount: request.amount,
    paid_asset: payment?.asset,
    paid_amount: payment?.amount,
    paid_fiat_rate: payment?.fiatRate,
    accepted_assets: request.acceptedAssets && [...request.acceptedAssets],
    fee_asset: payment?.asset,
    fee_amount: payment?.feeAmount,
    fee: options.webhook ? payment?.feeAmount : undefined,
    fee_in_usd: payment?.feeInUsd,
    pay_url: botUrl,
    bot_invoice_url: botUrl,
    mini_app_invoice_url: `https://t.me/${links.botUsername}/app?startapp=invoice-${record.hash}&mode=compact`,
    web_app_invoice_url: links.pageUrl(record.hash),
    description: request.description,
    status: statusOf(record, options.now),
    swap_to: request.swapTo,
    created_at: iso(record.createdAt),
    allow_comments: request.allowComments,
    allow_anonymous: request.allowAnonymous,
    expiration_date: record.expiresAt === null ? undefined : iso(record.expiresAt),
    paid_usd_rate: payment?.usdRate,
    usd_rate: options.webhook ? payment?.usdRate : undefined,
    paid_at: payment && iso(payment.paidAt),
    paid_anonymously: payment ? false : undefined,
    hidden_message: request.hiddenMessage,
    payload: request.payload,
    paid_btn_name: request.paidBtnName,
    paid_btn_url: request.paidBtnUrl,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null)) as unknown as CryptopayInvoice;
}
