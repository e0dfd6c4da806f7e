/**
 * The fake's invoices and how they move, as Crypto Pay's do: an invoice is `active` until it is paid
 * (`paid`) or its `expiration_date` passes (`expired`, read from the real clock each time it is looked at,
 * as the API answers it). deleteInvoice removes an active or expired one; a paid one stays.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { InvoiceStatus } from './invoice-object.js';
import type { InvoiceRequest } from './invoice-request.js';
import { paymentFor, type PaymentRecord } from './payment.js';

export interface InvoiceRecord {
  id: number;
  hash: string;
  request: InvoiceRequest;
  /** Unix ms. */
  createdAt: number;
  /** Unix ms; null = never expires. */
  expiresAt: number | null;
  payment: PaymentRecord | null;
}

export function statusOf(record: InvoiceRecord, now = Date.now()): InvoiceStatus {
  if (record.payment) return 'paid';
  return record.expiresAt !== null && record.expiresAt <= now ? 'expired' : 'active';
}

const HASH_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `IV` + 10 letters and digits, like `IVECrmWQmMWh`. */
function invoiceHash(): string {
  return `IV${[...randomBytes(10)].map((byte) => HASH_ALPHABET[byte % HASH_ALPHABET.length]).join('')}`;
}

export type Invoices = ReturnType<typeof createInvoices>;

export function createInvoices() {
  const records = new Map<number, InvoiceRecord>();
  const deletedHashes = new Set<string>();
  // Ids start somewhere arbitrary, so nothing can assume they start at 1 or match another fake's.
  let nextId = randomInt(100_000, 900_000);

  function activeRecord(id: number): InvoiceRecord {
    const record = records.get(id);
    if (!record) throw new Error(`fake Crypto Pay: no invoice ${id}`);
    const status = statusOf(record);
    if (status !== 'active') throw new Error(`fake Crypto Pay: invoice ${id} is ${status}, not active`);
    return record;
  }

  return {
    create(request: InvoiceRequest, now = Date.now()): InvoiceRecord {
      const record: InvoiceRecord = {
        id: nextId++,
        hash: invoiceHash(),
        request,
        createdAt: now,
        expiresAt: request.expiresIn === undefined ? null : now + request.expiresIn * 1000,
        payment: null,
      };
      records.set(record.id, record);
      return record;
    },
    get: (id: number): InvoiceRecord | undefined => records.get(id),
    byHash: (hash: string): InvoiceRecord | undefined => [...records.values()].find((r) => r.hash === hash),
    /** Oldest first. */
    all: (): InvoiceRecord[] => [...records.values()],
    wasDeleted: (hash: string): boolean => deletedHashes.has(hash),
    /** Removes an invoice for good (the caller has checked deleteInvoice's rules). */
    remove(record: InvoiceRecord): void {
      records.delete(record.id);
      deletedHashes.add(record.hash);
    },
    /** The payer pays the whole invoice in `asset` (a fiat invoice's first accepted asset unless told). Throws unless active. */
    pay(id: number, asset?: string, now = Date.now()): InvoiceRecord {
      const record = activeRecord(id);
      const accepted = record.request.acceptedAssets ?? [record.request.asset!];
      const paidIn = asset ?? accepted[0]!;
      if (!accepted.includes(paidIn)) throw new Error(`fake Crypto Pay: invoice ${id} takes ${accepted.join(', ')}, not ${paidIn}`);
      record.payment = paymentFor(record.request, paidIn, now);
      return record;
    },
    /** The invoice's time runs out now: its expiration_date becomes now (set even where none was). Throws unless active. */
    expire(id: number, now = Date.now()): InvoiceRecord {
      const record = activeRecord(id);
      record.expiresAt = now;
      return record;
    },
  };
}
