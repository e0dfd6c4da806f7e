import { useLingui } from '@lingui/react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { CheckoutQuote } from '../../../../shared/promo-codes.js';
import { billingApi } from '../../api/billing-endpoints';
import { isApiError } from '../../api';
import { BUTTON } from '../accounts/button-styles';
import { useStoreMoney } from '../config/useStoreMoney';
import { useFormat } from '../../i18n/format';
import { CodeInput } from './CodeInput';
import { rememberedPromo } from './remembered-promo';

interface PromoCodeFieldProps {
  planId: string;
  /** The code the server accepted for this plan, with the price it leaves; null while none is. */
  quote: CheckoutQuote | null;
  /** The discount the customer was referred with, which applies while no code is typed. */
  referral?: CheckoutQuote | null;
  onQuote: (quote: CheckoutQuote | null) => void;
  /** A refusal from elsewhere (the checkout itself): shown under the field. */
  error: string | null;
  onError: (message: string | null) => void;
  disabled: boolean;
}

/** How long the code's discount lasts, in words. */
function useDurationText(): (quote: CheckoutQuote) => string {
  const { _ } = useLingui();
  return (quote) => {
    const promo = quote.promo!;
    if (promo.duration === 'forever') return _('pricing.promo.forever');
    if (promo.duration === 'repeating') return _('pricing.promo.repeating', { months: promo.durationMonths ?? 1 });
    return _('pricing.promo.once');
  };
}

/**
 * "Have a promo code?": the code is checked by the server for this plan and this customer (`POST
 * /api/checkout/quote`), which says what it takes off or why it cannot be used. A code from a `?promo=` link
 * is filled in and checked at once.
 */
export function PromoCodeField({ planId, quote, referral = null, onQuote, error, onError, disabled }: PromoCodeFieldProps) {
  const { _ } = useLingui();
  const money = useStoreMoney();
  const format = useFormat();
  const durationText = useDurationText();
  const id = useId();
  const fromLink = useRef(rememberedPromo());
  const [open, setOpen] = useState(fromLink.current !== null);
  const [value, setValue] = useState(fromLink.current ?? '');
  const [checking, setChecking] = useState(false);

  async function check(code: string) {
    const trimmed = code.trim();
    if (!trimmed) return;
    setChecking(true);
    onError(null);
    try {
      onQuote(await billingApi.quote({ planId, promoCode: trimmed }));
    } catch (caught) {
      onQuote(null);
      onError(isApiError(caught) && caught.status >= 400 && caught.status < 500 && caught.message ? caught.message : _('pricing.promo.failed'));
    } finally {
      setChecking(false);
    }
  }

  // Once, for the code the link brought.
  const checkLinkCode = useRef(() => {
    if (fromLink.current) void check(fromLink.current);
  });
  useEffect(() => {
    checkLinkCode.current();
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    void check(value);
  }

  function remove() {
    onQuote(null);
    onError(null);
    setValue('');
  }

  if (quote?.promo) {
    return (
      <div
        className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-emerald-50 px-4 py-3 text-sm ring-1 ring-emerald-200"
        data-testid="promo-applied"
      >
        <span className="text-emerald-900">
          {_('pricing.promo.applied', { code: quote.promo.code, discount: money(quote.discount) })}
          {format.separator}
          {durationText(quote)}
        </span>
        <button type="button" onClick={remove} disabled={disabled} className={BUTTON.smallSecondary}>
          {_('pricing.promo.remove')}
        </button>
      </div>
    );
  }

  const referralNote = referral?.promo && (
    <p className="rounded-xl bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200" data-testid="referral-discount">
      {_('pricing.promo.referral', { discount: money(referral.discount) })}
    </p>
  );

  if (!open) {
    return (
      <div className="space-y-2">
        {referralNote}
        <button
          type="button"
          onClick={() => setOpen(true)}
          disabled={disabled}
          className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline"
        >
          {_(referralNote ? 'pricing.promo.haveInstead' : 'pricing.promo.have')}
        </button>
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-1.5">
      {referralNote}
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {_('pricing.promo.label')}
      </label>
      <div className="flex gap-2">
        <CodeInput id={id} value={value} onValueChange={setValue} errorId={error ? `${id}-error` : undefined} />
        <button type="submit" disabled={disabled || checking || !value.trim()} aria-busy={checking || undefined} className={BUTTON.secondary}>
          {checking ? _('pricing.promo.checking') : _('pricing.promo.apply')}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
