/** The types of the fake's options and of the handle tests drive it with (see `startFakeCryptopay`). */
import type { CryptopayErrorBody } from './http.js';
import type { CryptopayInvoice } from './invoice-object.js';

export interface FakeCryptopayOptions {
  /** Requests must carry `Crypto-Pay-API-Token: <token>`, else 401 UNAUTHORIZED; deliveries are signed with it. */
  token: string;
  /** Default testnet: the bot is CryptoTestnetBot, and JET is an asset. */
  network?: 'mainnet' | 'testnet';
  /** getMe's app_id; default 10001. */
  appId?: number;
  /** getMe's name; default 'Fake Crypto Pay App'. */
  appName?: string;
  /** Where invoice_paid updates are POSTed; null (the default) = webhooks not enabled. */
  webhookUrl?: string | null;
  /** Default 0 (a free port). */
  port?: number;
}

/** One API request (`/api/…`; the invoice pages are not listed). */
export interface FakeCryptopayRequest {
  /** The HTTP verb, upper case. */
  verb: string;
  /** The method name from the path, as sent (`getMe`). */
  method: string;
  /** The query string merged with the body, values as sent (not coerced): a JSON array stays an array. */
  params: Record<string, unknown>;
  /** The Crypto-Pay-API-Token header as sent, or null. */
  token: string | null;
}

/** One webhook delivery attempt: the receiver's HTTP status, or 'error' (refused, reset, timed out). */
export interface FakeCryptopayDelivery {
  invoiceId: number;
  status: number | 'error';
  /** The body exactly as sent (and signed). */
  body: string;
}

/** What a delivery came to: the receiver's status, 'error', or null when nothing was sent (no webhook URL, `deliver: false`). */
export interface DeliveryResult {
  status: number | 'error' | null;
}

export interface FakeCryptopay {
  /** `http://127.0.0.1:PORT`; the driver calls `${url}/api/<method>`. */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly appId: number;
  /** Every API request, in order. */
  readonly requests: ReadonlyArray<FakeCryptopayRequest>;
  /** Every delivery attempt, in the order they finished. */
  readonly deliveries: ReadonlyArray<FakeCryptopayDelivery>;
  /** Where later deliveries go; null = none. */
  setWebhookUrl(url: string | null): void;
  /** A copy of the invoice as getInvoices answers it; undefined once deleted. */
  getInvoice(id: number): CryptopayInvoice | undefined;
  /** Copies of every invoice not deleted, oldest first. */
  listInvoices(): CryptopayInvoice[];
  /**
   * What Pay on the invoice page does: the whole invoice is paid in `asset` (a fiat invoice's first accepted
   * asset unless told), then the signed invoice_paid update is delivered (unless `deliver: false`).
   * Throws unless the invoice is active.
   */
  pay(invoiceId: number, options?: { asset?: string; deliver?: boolean }): Promise<DeliveryResult>;
  /** Delivers a paid invoice's update again, as Crypto Pay retries: the same update_id and payload, a new request_date. */
  redeliver(invoiceId: number): Promise<DeliveryResult>;
  /** The invoice's time runs out now: its expiration_date becomes now (no webhook: Crypto Pay sends none for expiry). Throws unless active. */
  expire(invoiceId: number): void;
  /** The next call of this API method (once) answers this error, with the HTTP status `error.code`, and does nothing. */
  failNext(method: string, error: CryptopayErrorBody): void;
  /** The next call of this method is carried out, but the connection is closed without an answer. */
  loseNextAnswer(method: string): void;
  /**
   * The update a delivery would carry for an invoice now, and its signature (`token` signs with another
   * token). A paid invoice's is the one it was delivered with (a new request_date); any other invoice gets
   * one made from its current state, for tests that forge updates.
   */
  signedUpdate(invoiceId: number, options?: { token?: string }): { body: string; signature: string };
  close(): Promise<void>;
}
