/**
 * 54-FZ receipts (`receipt` on a payment, capture or refund). A shop with fiscalization on must send one with
 * every payment and refund; YooKassa refuses a missing or malformed one with 400 "Receipt is missing or
 * illegal". The fake names the faulty field in `parameter` (`receipt` itself when it is missing).
 */
import type { Money } from './amounts.js';
import { invalidRequest, type YookassaApiError } from './http.js';

const PAYMENT_MODES = ['full_prepayment', 'partial_prepayment', 'advance', 'full_payment', 'partial_payment', 'credit', 'credit_payment'];
const PAYMENT_SUBJECTS = [
  'commodity',
  'excise',
  'job',
  'service',
  'gambling_bet',
  'gambling_prize',
  'lottery',
  'lottery_prize',
  'intellectual_activity',
  'payment',
  'agent_commission',
  'property_right',
  'non_operating_gain',
  'insurance_premium',
  'sales_tax',
  'resort_fee',
  'composite',
  'another',
  'marked',
  'non_marked',
  'marked_excise',
  'non_marked_excise',
  'fine',
  'tax',
  'lien',
  'cost',
  'casino',
  'agent_withdrawals',
  'pension_insurance_without_payouts',
  'pension_insurance_with_payouts',
  'health_insurance_without_payouts',
  'health_insurance_with_payouts',
  'health_insurance',
];
const MAX_ITEMS = 100;
const ITEM_DESCRIPTION_MAX_LENGTH = 128;

const illegal = (parameter: string): YookassaApiError => invalidRequest('Receipt is missing or illegal', parameter);

const isIntegerIn = (value: unknown, min: number, max: number): boolean => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/** The customer's contact: `customer.email` / `customer.phone`, or the older top-level `email` / `phone`. One is needed. */
function checkContact(receipt: Record<string, unknown>): void {
  const customer = receipt.customer;
  if (customer !== undefined && (customer === null || typeof customer !== 'object' || Array.isArray(customer))) throw illegal('receipt.customer');
  const { email, phone } = { email: receipt.email, phone: receipt.phone, ...(customer as Record<string, unknown> | undefined) };
  if (email !== undefined && (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email))) throw illegal('receipt.customer.email');
  if (phone !== undefined && (typeof phone !== 'string' || !/^\+?\d{11,15}$/.test(phone))) throw illegal('receipt.customer.phone');
  if (email === undefined && phone === undefined) throw illegal('receipt.customer');
}

/** One item; returns its line total in minor units (unit price × quantity). */
function checkItem(raw: unknown, path: string, currency: string): number {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw illegal(path);
  const item = raw as Record<string, unknown>;
  if (typeof item.description !== 'string' || item.description.trim() === '' || item.description.length > ITEM_DESCRIPTION_MAX_LENGTH) {
    throw illegal(`${path}.description`);
  }
  // Older examples send the quantity as a string ("1.00").
  const quantity = typeof item.quantity === 'string' && /^\d+(\.\d+)?$/.test(item.quantity) ? Number(item.quantity) : item.quantity;
  if (typeof quantity !== 'number' || !(quantity > 0)) throw illegal(`${path}.quantity`);
  const amount = item.amount as Record<string, unknown> | undefined;
  const value = typeof amount?.value === 'number' ? String(amount.value) : amount?.value;
  if (typeof value !== 'string' || !/^\d{1,12}(\.\d{1,2})?$/.test(value)) throw illegal(`${path}.amount`);
  if (amount?.currency !== currency) throw illegal(`${path}.amount.currency`);
  if (!isIntegerIn(item.vat_code, 1, 12)) throw illegal(`${path}.vat_code`);
  if (item.payment_mode !== undefined && !PAYMENT_MODES.includes(item.payment_mode as string)) throw illegal(`${path}.payment_mode`);
  if (item.payment_subject !== undefined && !PAYMENT_SUBJECTS.includes(item.payment_subject as string)) throw illegal(`${path}.payment_subject`);
  const [whole, fraction = ''] = value.split('.');
  const unitMinor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Math.round(unitMinor * quantity);
}

/**
 * Checks a receipt against the money it is for (the payment, the captured part, or the refund): the items'
 * unit price × quantity must add up to it exactly.
 */
export function checkReceipt(raw: unknown, due: Money): void {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw illegal('receipt');
  const receipt = raw as Record<string, unknown>;
  checkContact(receipt);
  if (receipt.tax_system_code !== undefined && !isIntegerIn(receipt.tax_system_code, 1, 6)) throw illegal('receipt.tax_system_code');
  const items = receipt.items;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS) throw illegal('receipt.items');
  const total = items.reduce<number>((sum, item, index) => sum + checkItem(item, `receipt.items[${index}]`, due.currency), 0);
  if (total !== due.minor) throw illegal('receipt.items');
}

/** The receipt a fiscalizing shop must send (and any receipt sent anyway), checked; `receipt` named when it is missing. */
export function checkReceiptFor(raw: unknown, due: Money, fiscalization: boolean): boolean {
  if (raw === undefined || raw === null) {
    if (fiscalization) throw illegal('receipt');
    return false;
  }
  checkReceipt(raw, due);
  return true;
}
