/**
 * The payment methods customers paid with, by id (YooKassa gives a method the id of the payment it was first
 * used in), whether each was saved for autopayments, and how the next charges of a saved one are to end.
 */
import { digits } from './ids.js';
import { invalidRequest } from './http.js';
import type { ShopMethod } from './payment-request.js';
import type { YookassaPaymentMethod } from './yookassa-objects.js';

/** The test card the confirmation page pays with. */
export const TEST_CARD = { number: '5555 5555 5555 4444', first6: '555555', last4: '4444', expiryMonth: '12', cardType: 'MasterCard' } as const;
const TEST_WALLET = '410011758831136';

/** How a saved-method charge ends: succeeded, pending (the bank has not answered yet), or canceled with this reason. */
export type ChargeOutcome = 'succeeded' | 'pending' | (string & {});

/** The reasons YooKassa itself cancels for; the customer's bank or card network gives every other one. */
const YOO_MONEY_REASONS = new Set([
  'permission_revoked',
  'fraud_suspected',
  'country_forbidden',
  'internal_timeout',
  'expired_on_confirmation',
  'expired_on_capture',
  'identification_required',
  'deal_expired',
]);

export const partyOf = (reason: string): string => (YOO_MONEY_REASONS.has(reason) ? 'yoo_money' : 'payment_network');

/** The method object of a payment paid on the page; SBP is never saved (the fake's choice, as for most banks). */
export function paidMethod(type: ShopMethod, id: string, save: boolean, year: number): YookassaPaymentMethod {
  switch (type) {
    case 'bank_card':
      return {
        type,
        id,
        saved: save,
        status: save ? 'active' : 'inactive',
        title: `Bank card *${TEST_CARD.last4}`,
        card: {
          first6: TEST_CARD.first6,
          last4: TEST_CARD.last4,
          expiry_month: TEST_CARD.expiryMonth,
          expiry_year: String(year + 4),
          card_type: TEST_CARD.cardType,
          issuer_country: 'RU',
        },
      };
    case 'yoo_money':
      return { type, id, saved: save, status: save ? 'active' : 'inactive', title: `YooMoney wallet ${TEST_WALLET}`, account_number: TEST_WALLET };
    case 'sbp':
      return { type, id, saved: false, status: 'inactive', sbp_operation_id: digits(20), payer_bank_details: { bank_id: '100000000111', bic: '044525225' } };
  }
}

export interface PaymentMethods {
  /** Records the method a payment was paid (or declined) with. */
  remember(method: YookassaPaymentMethod): void;
  /** The saved method a charge names; 400 when there is none, or it was not saved. */
  forCharge(id: string): YookassaPaymentMethod;
  /** How this charge ends: the next scripted outcome, else succeeded — or permission_revoked for good once the customer revoked it. */
  nextOutcome(id: string): ChargeOutcome;
  /** A charge of the method ended so: a permission_revoked holds for every later charge. */
  ended(id: string, outcome: ChargeOutcome): void;
  script(id: string, outcomes: ChargeOutcome[]): void;
}

export function createPaymentMethods(): PaymentMethods {
  const methods = new Map<string, { object: YookassaPaymentMethod; revoked: boolean }>();
  const scripts = new Map<string, ChargeOutcome[]>();
  return {
    remember(method) {
      methods.set(method.id, { object: structuredClone(method), revoked: false });
    },
    forCharge(id) {
      const found = methods.get(id);
      if (!found) throw invalidRequest('Payment method is not found', 'payment_method_id');
      if (!found.object.saved) throw invalidRequest('Payment method is not saved', 'payment_method_id');
      return structuredClone(found.object);
    },
    nextOutcome(id) {
      return scripts.get(id)?.shift() ?? (methods.get(id)?.revoked ? 'permission_revoked' : 'succeeded');
    },
    ended(id, outcome) {
      // A customer who revoked the permission has revoked it for every later charge too.
      const found = methods.get(id);
      if (found && outcome === 'permission_revoked') found.revoked = true;
    },
    script(id, outcomes) {
      scripts.set(id, [...(scripts.get(id) ?? []), ...outcomes]);
    },
  };
}
