import { useId, useState, type ReactNode } from 'react';
import { describeInterval, renewalIntervalOf } from '../../../../shared/plan-billing.js';
import type { Plan } from '../../../../shared/plans.js';
import { formatUsd } from '../../../../shared/pricing.js';
import { LockIcon } from '../../components/content/content-icons';
import { BUTTON } from '../accounts/button-styles';
import { formatBytes, formatDuration, formatExpiry, formatLocations } from '../accounts/format';
import { Modal } from '../accounts/Modal';
import { targetPlanName, type PaymentTarget } from './payment-target';
import type { PaymentMethod } from '../../../../shared/billing-schemas.js';

interface PaymentDialogProps {
  target: PaymentTarget;
  /** The methods on offer, the first offered first (public settings); card alone when omitted. */
  methods?: readonly PaymentMethod[];
  /**
   * Starts the checkout and sends the browser to it. It handles its own failure (the dashboard
   * closes this dialog and shows the message), so the dialog only shows 'Redirecting...' meanwhile.
   */
  onPay: (method: PaymentMethod) => Promise<void>;
  onClose: () => void;
}

const METHOD_LABELS: Record<PaymentMethod, string> = { card: 'card', crypto: 'crypto' };

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
function renewalOf(plan: Plan, kind: PaymentTarget['kind']): string | null {
  const interval = kind === 'buy' && plan.billing === 'recurring' ? renewalIntervalOf(plan.days) : null;
  return interval ? describeInterval(interval) : null;
}

/** Price, billing, duration, data and locations of the plan being paid for. */
function PlanSummary({ plan, kind }: { plan: Plan; kind: PaymentTarget['kind'] }) {
  const renews = renewalOf(plan, kind);
  return (
    <>
      <SummaryRow label="Price">{formatUsd(plan.price)}</SummaryRow>
      <SummaryRow label="Billing">{renews ? `Renews automatically ${renews}` : 'One-off payment, no auto-renewal'}</SummaryRow>
      <SummaryRow label="Duration">{formatDuration(plan.days)}</SummaryRow>
      <SummaryRow label="Data">{formatBytes(plan.dataLimitBytes)}</SummaryRow>
      <SummaryRow label="Locations">{formatLocations(plan.locations)}</SummaryRow>
    </>
  );
}

/** What a renewal does to the account, in words. */
function RenewalExplanation({ target }: { target: Extract<PaymentTarget, { kind: 'renew' }> }) {
  const { account, plan } = target;
  return (
    <p className="leading-7 text-slate-600">
      Renewing extends the expiry of <span className="font-semibold break-all text-slate-800">{account.username}</span> by{' '}
      {plan ? formatDuration(plan.days) : "the plan's duration"} and resets its data allowance
      {plan ? ` to ${formatBytes(plan.dataLimitBytes)}` : ''}. Your subscription link stays the same.
    </p>
  );
}

/** Whether the card will be charged again: every period until cancelled, or never. */
function RenewalTerms({ plan, kind, cryptoOnly }: { plan: Plan; kind: PaymentTarget['kind']; cryptoOnly: boolean }) {
  const renews = cryptoOnly ? null : renewalOf(plan, kind);
  return (
    <p className="text-sm leading-6 text-slate-600">
      {renews ? (
        <>
          <span className="font-semibold text-slate-800">Renews automatically {renews} until you cancel.</span> Cancel any
          time from your dashboard.
        </>
      ) : (
        'A one-off payment: your card is not charged again.'
      )}
    </p>
  );
}

/**
 * The payment modal: what is being bought (or renewed), whether it renews, a note that Stripe takes
 * the card, and 'Pay {price} with card', which starts the checkout.
 */
export function PaymentDialog({ target, methods = ['card'], onPay, onClose }: PaymentDialogProps) {
  const titleId = useId();
  const [busy, setBusy] = useState<PaymentMethod | null>(null);
  const offersCard = methods.includes('card');
  const offersCrypto = methods.includes('crypto');
  const plan = target.plan;
  const planName = targetPlanName(target);
  const title = target.kind === 'buy' ? `Buy ${planName}` : `Renew ${planName}`;

  async function pay(method: PaymentMethod) {
    if (busy) return;
    setBusy(method);
    try {
      await onPay(method);
    } catch {
      setBusy(null);
    }
  }

  return (
    <Modal title={title} titleId={titleId} onClose={() => !busy && onClose()}>
      <div className="space-y-4">
        {target.kind === 'renew' && <RenewalExplanation target={target} />}
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 rounded-xl bg-slate-50 p-4 text-sm ring-1 ring-slate-200">
          <SummaryRow label="Plan">{planName}</SummaryRow>
          {target.kind === 'renew' && (
            <>
              <SummaryRow label="Account">{target.account.username}</SummaryRow>
              <SummaryRow label="Expires now">{formatExpiry(target.account.expireDate)}</SummaryRow>
            </>
          )}
          {plan && <PlanSummary plan={plan} kind={target.kind} />}
        </dl>
        {plan && <RenewalTerms plan={plan} kind={target.kind} cryptoOnly={!offersCard} />}
        {offersCard && (
          <p className="flex items-start gap-2 text-sm leading-6 text-slate-600">
            <LockIcon className="mt-0.5 size-4 shrink-0 text-emerald-700" />
            <span>
              Card payments are taken securely by Stripe. You will enter your card on Stripe&apos;s checkout page; we
              never see your card number.
            </span>
          </p>
        )}
        {offersCrypto && (
          <p className="flex items-start gap-2 text-sm leading-6 text-slate-600">
            <LockIcon className="mt-0.5 size-4 shrink-0 text-emerald-700" />
            <span>
              Crypto payments go to our own BTCPay Server: no payment company sees them. A crypto payment is one-off and
              your account is ready once the network confirms it.
            </span>
          </p>
        )}
      </div>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:flex-wrap sm:justify-end">
        <button type="button" onClick={onClose} disabled={busy !== null} className={BUTTON.secondary}>
          Cancel
        </button>
        {[...methods].reverse().map((method, index) => (
          <button
            key={method}
            type="button"
            data-autofocus={index === methods.length - 1 ? true : undefined}
            onClick={() => void pay(method)}
            disabled={busy !== null}
            aria-busy={busy === method || undefined}
            className={index === methods.length - 1 ? BUTTON.primary : BUTTON.secondary}
          >
            {busy === method ? 'Redirecting...' : `Pay ${plan ? `${formatUsd(plan.price)} ` : ''}with ${METHOD_LABELS[method]}`}
          </button>
        ))}
      </div>
    </Modal>
  );
}
