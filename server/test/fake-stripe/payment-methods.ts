/**
 * The payment method types the fake can take — a card pays at once; a bank debit is "delayed" (the session
 * completes unpaid and the payment settles later, see `succeedAsync` / `failAsync`) — and which of them a
 * Checkout Session offers.
 */
import type { FormHash, FormValue } from './form-body.js';
import { listParam, requiredString, unsupported } from './form-params.js';
import { invalidParam, StripeApiError } from './stripe-errors.js';

/** Each bank debit the fake knows, with the one currency it debits in. */
const BANK_DEBIT_CURRENCY: Readonly<Record<string, string>> = {
  us_bank_account: 'usd',
  sepa_debit: 'eur',
  bacs_debit: 'gbp',
  acss_debit: 'cad',
  au_becs_debit: 'aud',
};

export const CARD = 'card';

/** Every type a session may list in `payment_method_types`. */
export const SUPPORTED_METHOD_TYPES: readonly string[] = [CARD, ...Object.keys(BANK_DEBIT_CURRENCY)];

export function isBankDebit(type: string): boolean {
  return Object.hasOwn(BANK_DEBIT_CURRENCY, type);
}

/** The currency a bank debit works in (undefined for a card, which takes any). */
export function bankDebitCurrency(type: string): string | undefined {
  return isBankDebit(type) ? BANK_DEBIT_CURRENCY[type] : undefined;
}

/** The first delayed (bank debit) method a session offers, or null when it offers none. */
export function delayedMethodOf(types: readonly string[]): string | null {
  return types.find(isBankDebit) ?? null;
}

/**
 * What a session offers when the request names no `payment_method_types` (Stripe's dynamic payment methods):
 * a card, plus the bank debit of the session's currency when there is one.
 */
export function defaultMethodTypes(currency: string): string[] {
  const debit = Object.keys(BANK_DEBIT_CURRENCY).find((type) => BANK_DEBIT_CURRENCY[type] === currency);
  return debit ? [CARD, debit] : [CARD];
}

/** The API version (2026-09-30.endive) that removed `payment_method_types` from Checkout Session create. */
const PAYMENT_METHOD_TYPES_REMOVED_IN = '2026-09-30';

/** What a session offers, and the `allowed_payment_method_types` it was created with. */
export interface SessionPaymentMethods {
  paymentMethodTypes: string[];
  allowedPaymentMethodTypes: string[] | null;
}

/**
 * The payment methods a new session offers. Dynamic payment methods (`defaultMethodTypes`) unless the request
 * names `allowed_payment_method_types` (that set, filtered to what fits the currency) or
 * `excluded_payment_method_types` (that set taken out). `payment_method_types` (a strict list) is accepted only
 * from API versions before 2026-09-30.endive, as at Stripe; from then on it is a 400
 * `payment_method_types_no_longer_supported`.
 */
export function sessionPaymentMethods(params: FormHash, currency: string, apiVersion: string): SessionPaymentMethods {
  const given = ['payment_method_types', 'allowed_payment_method_types', 'excluded_payment_method_types'].filter((param) => params[param] !== undefined);
  if (given.length > 1) throw invalidParam(given[1]!, `You may only specify one of these parameters: ${given.join(', ')}.`);
  const dynamic = defaultMethodTypes(currency);
  if (params.allowed_payment_method_types !== undefined) {
    const allowed = typeList(params.allowed_payment_method_types, 'allowed_payment_method_types');
    const offered = allowed.filter((type) => dynamic.includes(type));
    if (offered.length === 0) {
      throw invalidParam(
        'allowed_payment_method_types',
        `None of the payment method types in allowed_payment_method_types (${allowed.join(', ')}) can be used for this Checkout Session (currency ${currency}).`,
      );
    }
    return { paymentMethodTypes: [...new Set(offered)], allowedPaymentMethodTypes: allowed };
  }
  if (params.excluded_payment_method_types !== undefined) {
    const excluded = typeList(params.excluded_payment_method_types, 'excluded_payment_method_types');
    const offered = dynamic.filter((type) => !excluded.includes(type));
    if (offered.length === 0) throw invalidParam('excluded_payment_method_types', 'No payment method types are left for this Checkout Session.');
    return { paymentMethodTypes: offered, allowedPaymentMethodTypes: null };
  }
  if (params.payment_method_types !== undefined) {
    return { paymentMethodTypes: strictTypes(params.payment_method_types, currency, apiVersion), allowedPaymentMethodTypes: null };
  }
  return { paymentMethodTypes: dynamic, allowedPaymentMethodTypes: null };
}

function typeList(value: FormValue, param: string): string[] {
  const list = listParam(value, param)!;
  if (list.length === 0) throw invalidParam(param, `Invalid array: ${param} must contain at least one element`);
  return list.map((type, i) => requiredString(type, `${param}[${i}]`));
}

/** The pre-endive `payment_method_types[]`: each type must be one the fake takes, a bank debit in its own currency. */
function strictTypes(value: FormValue, currency: string, apiVersion: string): string[] {
  if (apiVersion.slice(0, 10) >= PAYMENT_METHOD_TYPES_REMOVED_IN) {
    throw new StripeApiError(
      400,
      'invalid_request_error',
      `\`payment_method_types\` is no longer supported for Checkout Sessions on API version ${apiVersion}. ` +
        'Use `allowed_payment_method_types` (or `excluded_payment_method_types`) to choose among the payment methods enabled for your account.',
      'payment_method_types_no_longer_supported',
      'payment_method_types',
      true,
    );
  }
  const types = typeList(value, 'payment_method_types');
  types.forEach((type, i) => {
    if (!SUPPORTED_METHOD_TYPES.includes(type)) {
      throw unsupported(`payment_method_types[${i}]`, `the payment method type \`${type}\` (only ${SUPPORTED_METHOD_TYPES.join(', ')})`);
    }
    const debitCurrency = bankDebitCurrency(type);
    if (debitCurrency !== undefined && debitCurrency !== currency) {
      throw invalidParam(
        'payment_method_types',
        `The payment method type \`${type}\` does not support the currency \`${currency}\`; it can only be used with \`${debitCurrency}\`.`,
      );
    }
  });
  return [...new Set(types)];
}
