import { useLingui } from '@lingui/react';
import { useEffect, useId, useState, type ReactNode } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { PaymentMethod } from '../../../../shared/billing-schemas.js';
import type { PlanChangeBody, PlanChangeQuote, PlanChangeStarted } from '../../../../shared/plan-changes.js';
import { planText } from '../../../../shared/plan-translations.js';
import type { Plan } from '../../../../shared/plans.js';
import { isApiError } from '../../api';
import { billingApi } from '../../api/billing-endpoints';
import { useIsolate } from '../../i18n/bidi';
import { useFormat } from '../../i18n/format';
import { useLocale } from '../../i18n/locale-context';
import { BUTTON } from '../accounts/button-styles';
import { Modal } from '../accounts/Modal';
import { useStoreMoney } from '../config/useStoreMoney';
import { PAYMENT_METHOD_PRESENTATION } from './payment-methods';

/** What a plan change is paid with on the site (Telegram Stars are the bot's). */
type SitePaymentMethod = NonNullable<PlanChangeBody['method']>;

interface ChangePlanDialogProps {
  account: VpnAccount;
  /** The plans on sale; those the account can move to are offered (not its own, not free ones). */
  plans: readonly Plan[];
  /** The methods the store takes (public settings); the wallet is offered beside them. */
  methods: readonly PaymentMethod[];
  /** A change made or paid: the payment page (or the thank-you page), or a downgrade set for the paid end. */
  onStarted: (started: PlanChangeStarted) => void;
  onClose: () => void;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium break-words text-slate-800">{children}</dd>
    </>
  );
}

/** The quote for the chosen plan, read again whenever the choice changes (null while it loads, or when refused). */
function usePlanChangeQuote(accountId: string, planId: string | null): { quote: PlanChangeQuote | null; refused: string | null } {
  const [state, setState] = useState<{ quote: PlanChangeQuote | null; refused: string | null }>({ quote: null, refused: null });
  useEffect(() => {
    if (!planId) return undefined;
    let current = true;
    setState({ quote: null, refused: null });
    billingApi.quotePlanChange(accountId, planId).then(
      (quote) => current && setState({ quote, refused: null }),
      (caught: unknown) => current && setState({ quote: null, refused: isApiError(caught) ? caught.message : String(caught) }),
    );
    return () => {
      current = false;
    };
  }, [accountId, planId]);
  return state;
}

/** What the change does, in the quote's numbers: the credit, what is paid or credited now, and from when. */
function QuoteSummary({ quote }: { quote: PlanChangeQuote }) {
  const { _ } = useLingui();
  const format = useFormat();
  const money = useStoreMoney();
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 rounded-xl bg-slate-50 p-4 text-sm ring-1 ring-slate-200" data-testid="change-quote">
      <Row label={_('account.changePlan.price')}>{money(quote.price)}</Row>
      {quote.takesEffect === 'now' && (
        <Row label={_('account.changePlan.credit', { days: quote.creditDays })}>
          <span data-testid="change-credit">−{money(quote.credit)}</span>
        </Row>
      )}
      {quote.balanceCredit !== undefined && quote.balanceCredit > 0 && (
        <Row label={_('account.changePlan.toCardBalance')}>
          <span data-testid="change-balance">{money(quote.balanceCredit)}</span>
        </Row>
      )}
      {quote.takesEffect === 'now' && quote.walletCredit > 0 && (
        <Row label={_('account.changePlan.toWallet')}>
          <span data-testid="change-wallet">{money(quote.walletCredit)}</span>
        </Row>
      )}
      {quote.takesEffect === 'now' && (
        <Row label={_('account.changePlan.dueNow')}>
          <span data-testid="change-charge">{money(quote.charge)}</span>
        </Row>
      )}
      <Row label={_(quote.takesEffect === 'now' ? 'account.changePlan.runsUntil' : 'account.changePlan.switchesOn')}>
        {format.date(quote.takesEffect === 'now' ? quote.expiresAt : quote.effectiveAt)}
      </Row>
    </dl>
  );
}

/**
 * Switching an account to another plan: the plans it can move to, what the unused paid time is worth against the
 * chosen one, and either a payment of the difference (any method the store takes, or the balance), or a downgrade
 * made now into the wallet or set for the paid end, as the store does it (the server's quote says which).
 */
export function ChangePlanDialog({ account, plans, methods, onStarted, onClose }: ChangePlanDialogProps) {
  const { _ } = useLingui();
  const { locale } = useLocale();
  const isolated = useIsolate();
  const money = useStoreMoney();
  const titleId = useId();
  const choices = plans.filter((plan) => plan.id !== account.planId && !plan.isTrial && plan.price > 0);
  const [planId, setPlanId] = useState<string | null>(choices[0]?.id ?? null);
  const { quote, refused } = usePlanChangeQuote(account.id, planId);
  // A card subscription changes at Stripe: its proration is charged to the card it renews with, no payment page.
  const byCard = quote?.balanceCredit !== undefined;
  const [busy, setBusy] = useState<SitePaymentMethod | 'free' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const payMethods: readonly SitePaymentMethod[] = [
    ...methods.filter((method): method is SitePaymentMethod => method !== 'wallet' && method !== 'stars'),
    'wallet',
  ];

  async function start(method: SitePaymentMethod | 'free') {
    if (!planId || busy) return;
    setBusy(method);
    setError(null);
    try {
      onStarted(await billingApi.changePlan(account.id, { planId, ...(method === 'free' ? {} : { method }) }));
    } catch (caught) {
      setError(isApiError(caught) ? caught.message : _('account.changePlan.failed'));
      setBusy(null);
    }
  }

  return (
    <Modal title={_('account.changePlan.title', { account: isolated(account.username) })} titleId={titleId} onClose={() => !busy && onClose()}>
      <div className="space-y-4">
        <p className="leading-7 text-slate-600">{_('account.changePlan.intro')}</p>
        {choices.length === 0 ? (
          <p className="text-sm text-slate-600">{_('account.changePlan.none')}</p>
        ) : (
          <fieldset className="space-y-2">
            <legend className="sr-only">{_('account.changePlan.choose')}</legend>
            {choices.map((plan) => (
              <label key={plan.id} className="flex cursor-pointer items-center gap-3 rounded-lg px-3 py-2 ring-1 ring-slate-200 has-checked:ring-emerald-600">
                <input type="radio" name="plan" value={plan.id} checked={planId === plan.id} onChange={() => setPlanId(plan.id)} disabled={busy !== null} />
                <span className="flex-1 font-medium text-slate-800">
                  <bdi>{planText(plan, locale).name}</bdi>
                </span>
                <span className="text-sm text-slate-600">{money(plan.price)}</span>
              </label>
            ))}
          </fieldset>
        )}
        {quote && <QuoteSummary quote={quote} />}
        {quote?.takesEffect === 'period_end' && <p className="text-sm leading-6 text-slate-600">{_('account.changePlan.waitsNote')}</p>}
        {byCard && <p className="text-sm leading-6 text-slate-600">{_('account.changePlan.cardNote')}</p>}
        {(refused ?? error) && (
          <p role="alert" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
            {refused ?? error}
          </p>
        )}
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:flex-wrap sm:justify-end">
        <button type="button" onClick={onClose} disabled={busy !== null} className={BUTTON.secondary}>
          {_('pricing.payment.cancel')}
        </button>
        {quote && byCard && (
          <button type="button" data-autofocus onClick={() => void start('card')} disabled={busy !== null} className={BUTTON.primary}>
            {busy
              ? _('pricing.payment.redirecting')
              : quote.charge > 0
                ? _('account.changePlan.chargeCard', { price: money(quote.charge) })
                : _('account.changePlan.switchNow')}
          </button>
        )}
        {quote && !byCard && quote.charge === 0 && (
          <button type="button" data-autofocus onClick={() => void start('free')} disabled={busy !== null} className={BUTTON.primary}>
            {busy ? _('pricing.payment.redirecting') : _(quote.takesEffect === 'now' ? 'account.changePlan.switchNow' : 'account.changePlan.schedule')}
          </button>
        )}
        {quote &&
          !byCard &&
          quote.charge > 0 &&
          [...payMethods].reverse().map((method, index) => {
            const { Icon, payWithPrice } = PAYMENT_METHOD_PRESENTATION[method];
            return (
              <button
                key={method}
                type="button"
                onClick={() => void start(method)}
                disabled={busy !== null}
                className={`${index === payMethods.length - 1 ? BUTTON.primary : BUTTON.secondary} inline-flex items-center justify-center gap-2`}
              >
                <Icon className="size-4 shrink-0" />
                {busy === method ? _('pricing.payment.redirecting') : _(payWithPrice, { price: money(quote.charge) })}
              </button>
            );
          })}
      </div>
    </Modal>
  );
}
