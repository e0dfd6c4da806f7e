import { ERR } from '../../../../shared/errors.js';
import { InvitationNotice } from './InvitationNotice';
import { Trans, useLingui } from '@lingui/react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { renewalIntervalOf } from '../../../../shared/plan-billing.js';
import type { Plan } from '../../../../shared/plans.js';
import { useIsolate } from '../../i18n/bidi';
import { useFormat } from '../../i18n/format';
import { useLocale } from '../../i18n/locale-context';
import { useStoreMoney } from '../config/useStoreMoney';
import { BUTTON } from '../accounts/button-styles';
import { Modal } from '../accounts/Modal';
import { intervalText } from '../pricing/plan-text';
import { targetPlanName, type PaymentTarget } from './payment-target';
import type { PaymentMethod } from '../../../../shared/billing-schemas.js';
import type { CheckoutQuote } from '../../../../shared/promo-codes.js';
import { isApiError } from '../../api';
import { billingApi } from '../../api/billing-endpoints';
import { PromoCodeField } from './PromoCodeField';
import { PAYMENT_METHOD_PRESENTATION } from './payment-methods';

interface PaymentDialogProps {
  target: PaymentTarget;
  /** The methods on offer, the first offered first (public settings); card alone when omitted. */
  methods?: readonly PaymentMethod[];
  /**
   * Starts the checkout and sends the browser to it. It handles its own failure (the dashboard
   * closes this dialog and shows the message), so the dialog only shows 'Redirecting...' meanwhile.
   */
  onPay: (method: PaymentMethod, promoCode?: string) => Promise<void>;
  onClose: () => void;
}

/** Rows of the summary box: a label and its value. */
function SummaryRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium break-words text-slate-800">{children}</dd>
    </>
  );
}

/**
 * How often a recurring plan is charged ('every month'), or null for a one-off payment. Renewing an
 * account by hand is always a one-off payment, whatever its plan.
 */
function useRenewalOf(plan: Plan, kind: PaymentTarget['kind']): string | null {
  const { _ } = useLingui();
  const interval = kind === 'buy' && plan.billing === 'recurring' ? renewalIntervalOf(plan.days) : null;
  return interval ? intervalText(_, interval) : null;
}

/**
 * Price (before and after a promo code), the referral credit it uses, billing, duration (with a referral's extra days),
 * data, locations and (when limited) devices of the plan being paid for. `creditToRenewals`: a card subscription, whose
 * credit goes to its renewals (its extra days lengthen its first period).
 */
function PlanSummary({
  plan,
  kind,
  quote,
  creditToRenewals,
}: {
  plan: Plan;
  kind: PaymentTarget['kind'];
  quote: CheckoutQuote | null;
  creditToRenewals: boolean;
}) {
  const { _ } = useLingui();
  const format = useFormat();
  const money = useStoreMoney();
  const renews = useRenewalOf(plan, kind);
  return (
    <>
      <SummaryRow label={_('pricing.summary.price')}>
        {quote?.promo ? (
          <>
            <s className="me-2 font-normal text-slate-500">{money(quote.amount)}</s>
            <span data-testid="price-after">{money(quote.total)}</span>
          </>
        ) : (
          money(plan.price)
        )}
      </SummaryRow>
      {quote && quote.credit > 0 && (
        <SummaryRow label={_('pricing.summary.credit')}>
          <span data-testid="credit-used">
            {creditToRenewals
              ? _('pricing.summary.creditRenewals', { amount: money(quote.credit) })
              : _('pricing.summary.creditOff', { amount: money(quote.credit) })}
          </span>
        </SummaryRow>
      )}
      <SummaryRow label={_('pricing.summary.billing')}>
        {renews ? _('pricing.payment.renewsAutomatically', { interval: renews }) : _('pricing.payment.oneOff')}
      </SummaryRow>
      <SummaryRow label={_('pricing.summary.duration')}>
        {quote && quote.bonusDays > 0
          ? _('pricing.summary.durationBonus', { duration: format.duration(plan.days), bonus: format.duration(quote.bonusDays) })
          : format.duration(plan.days)}
      </SummaryRow>
      <SummaryRow label={_('pricing.summary.data')}>{format.bytes(plan.dataLimitBytes)}</SummaryRow>
      <SummaryRow label={_('pricing.summary.locations')}>{format.places(plan.locationCodes)}</SummaryRow>
      {typeof plan.deviceLimit === 'number' && (
        <SummaryRow label={_('pricing.summary.devices')}>{_('pricing.devices.upTo', { count: plan.deviceLimit })}</SummaryRow>
      )}
    </>
  );
}

/** What a renewal does to the account, in words. */
function RenewalExplanation({ target }: { target: Extract<PaymentTarget, { kind: 'renew' }> }) {
  const format = useFormat();
  const { account, plan } = target;
  const name = <bdi className="font-semibold break-all text-slate-800" />;
  return (
    <p className="leading-7 text-slate-600">
      {plan ? (
        <Trans
          id="pricing.payment.renewalExplanation"
          values={{ account: account.username, duration: format.duration(plan.days), data: format.bytes(plan.dataLimitBytes) }}
          components={{ 0: name }}
        />
      ) : (
        <Trans id="pricing.payment.renewalExplanationNoPlan" values={{ account: account.username }} components={{ 0: name }} />
      )}
    </p>
  );
}

/** The methods a recurring plan renews with: Stripe's subscriptions, and the card a YooKassa payment saves. */
const RENEWING_METHODS: ReadonlySet<PaymentMethod> = new Set(['card', 'yookassa']);

/** Whether the card will be charged again: every period until cancelled, or never. */
function RenewalTerms({ plan, kind, cryptoOnly }: { plan: Plan; kind: PaymentTarget['kind']; cryptoOnly: boolean }) {
  const { _ } = useLingui();
  const interval = useRenewalOf(plan, kind);
  const renews = cryptoOnly ? null : interval;
  return (
    <p className="text-sm leading-6 text-slate-600">
      {renews ? (
        <Trans id="pricing.payment.renewsUntilCancel" values={{ interval: renews }} components={{ 0: <span className="font-semibold text-slate-800" /> }} />
      ) : (
        _('pricing.payment.notChargedAgain')
      )}
    </p>
  );
}

/** Who takes the money, for each method offered: one line each, beside its icon. */
function MethodNotes({ methods }: { methods: readonly PaymentMethod[] }) {
  const { _ } = useLingui();
  const format = useFormat();
  if (methods.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label={_('pricing.payment.methodsLabel')}>
      {methods.map((method) => {
        const { Icon, name, note } = PAYMENT_METHOD_PRESENTATION[method];
        return (
          <li key={method} className="flex items-start gap-2 text-sm leading-6 text-slate-600">
            <Icon className="mt-1 size-4 shrink-0 text-emerald-700" />
            <span>
              <span className="font-medium text-slate-800">{_(name)}</span>
              {format.separator}
              {_(note)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * What the server gives by itself when no code is typed, for this plan: the first-payment discount or extra days the
 * customer was referred with, the referral credit they have, and the running trial the plan would go to (null when
 * none, or it cannot be asked).
 */
function useReferralQuote(planId: string | null): CheckoutQuote | null {
  const [quote, setQuote] = useState<CheckoutQuote | null>(null);
  useEffect(() => {
    if (!planId) return undefined;
    let current = true;
    billingApi.quote({ planId }).then(
      (answer) => current && setQuote(answer.promo?.referral || answer.credit > 0 || answer.bonusDays > 0 || answer.convertsTrial ? answer : null),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [planId]);
  return quote;
}

/**
 * The payment modal: what is being bought (or renewed), whether it renews, a note that Stripe takes
 * the card, and 'Pay {price} with card', which starts the checkout.
 */
export function PaymentDialog({ target, methods = ['card'], onPay, onClose }: PaymentDialogProps) {
  const { _ } = useLingui();
  const format = useFormat();
  const money = useStoreMoney();
  const titleId = useId();
  const [busy, setBusy] = useState<PaymentMethod | null>(null);
  // The typed code's quote, and the referral discount the server gives when no code is typed (shown when there is no typed one).
  const [typedQuote, setQuote] = useState<CheckoutQuote | null>(null);
  const referralQuote = useReferralQuote(target.plan?.id ?? null);
  const quote = typedQuote ?? referralQuote;
  const [promoError, setPromoError] = useState<string | null>(null);
  const [shortBy, setShortBy] = useState<number | null>(null);
  const offersCard = methods.includes('card');
  const plan = target.plan;
  const { locale } = useLocale();
  const isolated = useIsolate();
  const planName = targetPlanName(target, _('pricing.payment.yourPlan'), locale);
  const title = _(target.kind === 'buy' ? 'pricing.payment.titleBuy' : 'pricing.payment.titleRenew', { plan: isolated(planName) });

  // Referral credit pays what is paid once (and the first payment of a plan the store renews with a saved YooKassa
  // card); a card subscription's goes to its renewals.
  const subscribesByCard = target.kind === 'buy' && target.plan.billing === 'recurring' && offersCard;
  const subscribes = (method: PaymentMethod) => method === 'card' && subscribesByCard;
  /** What the method charges now: the price after a code, less the credit it uses. */
  const due = (method: PaymentMethod) => (quote?.promo ? quote.total : (plan?.price ?? 0)) - (subscribes(method) ? 0 : (quote?.credit ?? 0));
  // The code or the credit leaves nothing to pay now: one button, and no payment page (a card subscription still starts at Stripe).
  const free = plan !== null && quote !== null && due(methods[0] ?? 'card') === 0 && !subscribesByCard;
  const paidByCredit = free && quote.credit > 0;

  async function pay(method: PaymentMethod) {
    if (busy) return;
    setBusy(method);
    setShortBy(null);
    try {
      await onPay(method, typedQuote?.promo?.code);
    } catch (caught) {
      // The code was refused at the last moment (its last use taken meanwhile): said here, the dialog stays.
      if (isApiError(caught) && caught.code === ERR.promo_invalid) {
        setQuote(null);
        setPromoError(caught.message);
      }
      // The balance was spent meanwhile (another order, in another tab): how much is missing, and where to top up.
      if (isApiError(caught) && caught.code === ERR.insufficient_balance) setShortBy(caught.needed ?? 0);
      setBusy(null);
    }
  }

  function payLabel(method: PaymentMethod, amount?: number): string {
    const ids = PAYMENT_METHOD_PRESENTATION[method];
    return plan ? _(ids.payWithPrice, { price: money(amount ?? due(method)) }) : _(ids.pay);
  }
  // Paid entirely from the balance: one button, and the order names the wallet (no provider is asked).
  const shownMethods: readonly PaymentMethod[] = paidByCredit ? ['wallet'] : free ? methods.slice(0, 1) : methods;

  return (
    <Modal title={title} titleId={titleId} onClose={() => !busy && onClose()}>
      <div className="space-y-4">
        {target.kind === 'buy' && <InvitationNotice />}
        {target.kind === 'renew' && <RenewalExplanation target={target} />}
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 rounded-xl bg-slate-50 p-4 text-sm ring-1 ring-slate-200">
          <SummaryRow label={_('pricing.summary.plan')}>
            <bdi>{planName}</bdi>
          </SummaryRow>
          {target.kind === 'renew' && (
            <>
              <SummaryRow label={_('pricing.summary.account')}>
                <bdi>{target.account.username}</bdi>
              </SummaryRow>
              <SummaryRow label={_('pricing.summary.expiresNow')}>{format.expiry(target.account.expireDate)}</SummaryRow>
            </>
          )}
          {plan && <PlanSummary plan={plan} kind={target.kind} quote={quote} creditToRenewals={subscribesByCard} />}
        </dl>
        {target.kind === 'buy' && quote?.convertsTrial && (
          <p className="rounded-xl bg-indigo-50 px-4 py-3 text-sm text-indigo-900 ring-1 ring-indigo-200" data-testid="keeps-trial">
            {_('pricing.payment.keepsTrial', { plan: isolated(planName) })}
          </p>
        )}
        {plan && quote && quote.bonusDays > 0 && (
          <p className="rounded-xl bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200" data-testid="referral-days">
            {_(subscribesByCard ? 'pricing.promo.referralDaysRenewal' : 'pricing.promo.referralDays', { days: quote.bonusDays })}
          </p>
        )}
        {plan && (
          <PromoCodeField
            planId={plan.id}
            quote={typedQuote}
            referral={referralQuote}
            onQuote={setQuote}
            error={promoError}
            onError={setPromoError}
            disabled={busy !== null}
          />
        )}
        {plan && <RenewalTerms plan={plan} kind={target.kind} cryptoOnly={!methods.some((method) => RENEWING_METHODS.has(method))} />}
        {target.kind === 'buy' && target.plan.billing === 'recurring' && methods.includes('yookassa') && (
          <p className="text-sm leading-6 text-slate-600">{_('pricing.payment.yookassaRenewalNote')}</p>
        )}
        {(!free || paidByCredit) && <MethodNotes methods={shownMethods} />}
        {shortBy !== null && (
          <p role="alert" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
            {_('pricing.payment.insufficient', { missing: money(shortBy) })}{' '}
            <Link to="/wallet" className="font-semibold underline">
              {_('pricing.payment.topUpLink')}
            </Link>
          </p>
        )}
      </div>
      {/* Three methods or more are a column on every screen (the first offered on top), as two are on a phone. */}
      <div className={`mt-6 flex flex-col-reverse gap-3 ${shownMethods.length > 2 ? '' : 'sm:flex-row sm:flex-wrap sm:justify-end'}`}>
        <button type="button" onClick={onClose} disabled={busy !== null} className={BUTTON.secondary}>
          {_('pricing.payment.cancel')}
        </button>
        {[...shownMethods].reverse().map((method, index) => {
          const { Icon } = PAYMENT_METHOD_PRESENTATION[method];
          return (
            <button
              key={method}
              type="button"
              data-autofocus={index === shownMethods.length - 1 ? true : undefined}
              onClick={() => void pay(method)}
              disabled={busy !== null}
              aria-busy={busy === method || undefined}
              className={`${index === shownMethods.length - 1 ? BUTTON.primary : BUTTON.secondary} inline-flex items-center justify-center gap-2`}
            >
              {(!free || paidByCredit) && <Icon className="size-4 shrink-0" />}
              {busy === method
                ? _('pricing.payment.redirecting')
                : paidByCredit
                  ? payLabel('wallet', quote.total)
                  : free
                    ? _('pricing.payment.getFree')
                    : payLabel(method)}
            </button>
          );
        })}
      </div>
    </Modal>
  );
}
