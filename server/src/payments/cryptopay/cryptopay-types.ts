/** Crypto Pay objects as the driver reads them (amounts are decimal strings; absent fields do not apply). */

export type CryptopayInvoiceStatus = 'active' | 'paid' | 'expired';

export interface CryptopayInvoice {
  invoice_id: number;
  hash: string;
  currency_type: 'crypto' | 'fiat';
  asset?: string;
  fiat?: string;
  /** What the invoice asks for, in its fiat (or asset). */
  amount: string;
  accepted_assets?: string[];
  status: CryptopayInvoiceStatus;
  bot_invoice_url: string;
  mini_app_invoice_url?: string;
  web_app_invoice_url?: string;
  description?: string;
  payload?: string;
  created_at: string;
  expiration_date?: string;
  paid_at?: string;
  paid_asset?: string;
  paid_amount?: string;
  paid_fiat_rate?: string;
}

/** A webhook update: only `invoice_paid` exists (expiry is found by asking). */
export interface CryptopayUpdate {
  update_id: number;
  update_type: string;
  request_date: string;
  payload: CryptopayInvoice;
}

export interface CryptopayApp {
  app_id: number;
  name: string;
  payment_processing_bot_username: string;
}
