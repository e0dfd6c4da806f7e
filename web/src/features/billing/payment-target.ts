import type { VpnAccount } from '../../../../shared/accounts.js';
import type { CheckoutRequest } from '../../../../shared/billing.js';
import type { PaymentMethod } from '../../../../shared/billing-schemas.js';
import type { Locale } from '../../../../shared/locales.js';
import { planText } from '../../../../shared/plan-translations.js';
import type { Plan } from '../../../../shared/plans.js';

/** What the payment dialog sells: a new account on a plan, or another period for an existing account. */
export type PaymentTarget =
  | { kind: 'buy'; plan: Plan }
  /** `plan` is null when the account's plan is not among the plans on sale right now. */
  | { kind: 'renew'; account: VpnAccount; plan: Plan | null };

/** The body of `POST /api/checkout` for a target. */
export function checkoutRequestFor(target: PaymentTarget, method: PaymentMethod = 'card', promoCode?: string): CheckoutRequest {
  const extra = promoCode ? { method, promoCode } : { method };
  return target.kind === 'buy' ? { planId: target.plan.id, ...extra } : { accountId: target.account.id, ...extra };
}

/** The plan an account would be renewed on, among the plans on sale. Only paid plans count: a renewal is always charged. */
export function findRenewalPlan(plans: readonly Plan[], account: VpnAccount): Plan | null {
  if (!account.planId) return null;
  return plans.find((plan) => plan.id === account.planId && !plan.isTrial && plan.price > 0) ?? null;
}

/**
 * The plan's name as the dialog shows it, in `locale` (English where the operator gave none); the name
 * the account kept when its plan is no longer on sale; `fallback` ('your plan', in the reader's
 * language) when the account has none.
 */
export function targetPlanName(target: PaymentTarget, fallback: string, locale: Locale): string {
  if (target.plan) return planText(target.plan, locale).name;
  if (target.kind !== 'renew' || !target.account.planName) return fallback;
  return (locale === 'en' ? undefined : target.account.planNames?.[locale]) || target.account.planName;
}

/** The renewal of one of the customer's accounts, by its id: none when it is not theirs (not listed) or cannot be renewed. */
export function renewalTargetFor(accounts: readonly VpnAccount[], plans: readonly Plan[], accountId: string): PaymentTarget | null {
  const account = accounts.find((candidate) => candidate.id === accountId);
  return account?.renewable ? { kind: 'renew', account, plan: findRenewalPlan(plans, account) } : null;
}
