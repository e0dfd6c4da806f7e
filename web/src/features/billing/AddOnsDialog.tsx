import { useLingui } from '@lingui/react';
import { useEffect, useId, useState } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { AccountAddOns, AddOnKind, BuyAddOnBody } from '../../../../shared/add-ons.js';
import type { PaymentMethod } from '../../../../shared/billing-schemas.js';
import type { CheckoutStarted } from '../../../../shared/billing.js';
import { isApiError } from '../../api';
import { billingApi } from '../../api/billing-endpoints';
import { useIsolate } from '../../i18n/bidi';
import { useFormat } from '../../i18n/format';
import { useLocale } from '../../i18n/locale-context';
import { BUTTON } from '../accounts/button-styles';
import { Modal } from '../accounts/Modal';
import { useStoreMoney } from '../config/useStoreMoney';
import { PAYMENT_METHOD_PRESENTATION } from './payment-methods';

/** What an add-on is paid with on the site (Telegram Stars are the bot's). */
type SiteMethod = NonNullable<BuyAddOnBody['method']>;

interface AddOnsDialogProps {
  account: VpnAccount;
  /** The methods the store takes (public settings); the wallet is offered beside them. */
  methods: readonly PaymentMethod[];
  /** A purchase started: the payment page, or the thank-you page when the wallet paid it. */
  onStarted: (started: CheckoutStarted) => void;
  onClose: () => void;
}

/** "+1 device", "+50 GB": what an add-on gives, in the reader's language. */
function useGives(): (kind: AddOnKind, amount: number) => string {
  const { _ } = useLingui();
  const format = useFormat();
  return (kind, amount) => (kind === 'devices' ? _('account.addOns.devices', { count: amount }) : _('account.addOns.traffic', { data: format.bytes(amount) }));
}

/**
 * An account's add-ons: the ones it has (and until when), and the ones it can buy, each with a button per method
 * (the balance too). The server says what is offered: on sale, for the account's plan, with a limit to raise.
 */
export function AddOnsDialog({ account, methods, onStarted, onClose }: AddOnsDialogProps) {
  const { _ } = useLingui();
  const { locale } = useLocale();
  const format = useFormat();
  const money = useStoreMoney();
  const isolated = useIsolate();
  const gives = useGives();
  const titleId = useId();
  const [addOns, setAddOns] = useState<AccountAddOns | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const payMethods: readonly SiteMethod[] = [...methods.filter((method): method is SiteMethod => method !== 'wallet' && method !== 'stars'), 'wallet'];

  useEffect(() => {
    let current = true;
    billingApi.accountAddOns(account.id).then(
      (answer) => current && setAddOns(answer),
      (caught: unknown) => current && setError(isApiError(caught) ? caught.message : _('account.addOns.loadFailed')),
    );
    return () => {
      current = false;
    };
  }, [account.id, _]);

  async function buy(addOnId: string, method: SiteMethod) {
    if (busy) return;
    setBusy(`${addOnId}:${method}`);
    setError(null);
    try {
      onStarted(await billingApi.buyAddOn(account.id, { addOnId, method }));
    } catch (caught) {
      setError(isApiError(caught) ? caught.message : _('account.addOns.buyFailed'));
      setBusy(null);
    }
  }

  return (
    <Modal title={_('account.addOns.title', { account: isolated(account.username) })} titleId={titleId} onClose={() => !busy && onClose()}>
      <div className="space-y-5">
        {addOns && addOns.active.length > 0 && (
          <section>
            <h3 className="text-sm font-semibold text-slate-800">{_('account.addOns.active')}</h3>
            <ul className="mt-2 space-y-1 text-sm text-slate-600" data-testid="active-add-ons">
              {addOns.active.map((addOn) => (
                <li key={addOn.id}>
                  <bdi>{gives(addOn.kind, addOn.amount)}</bdi>
                  {format.separator}
                  {addOn.endsAt ? _('account.addOns.until', { date: format.date(addOn.endsAt) }) : _('account.addOns.forGood')}
                </li>
              ))}
            </ul>
          </section>
        )}
        {addOns && addOns.offered.length === 0 && <p className="text-sm text-slate-600">{_('account.addOns.none')}</p>}
        {addOns?.offered.map((addOn) => (
          <section key={addOn.id} className="rounded-xl p-4 ring-1 ring-slate-200" aria-label={addOn.name}>
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="font-semibold text-slate-900">
                <bdi>{(locale !== 'en' && addOn.translations[locale]?.name) || addOn.name}</bdi>
              </h3>
              <span className="font-medium text-slate-800">{money(addOn.price)}</span>
            </div>
            <p className="mt-1 text-sm text-slate-600">
              {gives(addOn.kind, addOn.amount)}
              {format.separator}
              {_(addOn.until === 'forever' ? 'account.addOns.forGood' : 'account.addOns.untilPeriodEnd')}
            </p>
            <div className="mt-3 flex flex-wrap gap-2">
              {payMethods.map((method) => {
                const { Icon, payWithPrice } = PAYMENT_METHOD_PRESENTATION[method];
                return (
                  <button
                    key={method}
                    type="button"
                    onClick={() => void buy(addOn.id, method)}
                    disabled={busy !== null}
                    className={`${BUTTON.smallSecondary} inline-flex items-center gap-1.5`}
                  >
                    <Icon className="size-4 shrink-0" />
                    {busy === `${addOn.id}:${method}` ? _('pricing.payment.redirecting') : _(payWithPrice, { price: money(addOn.price) })}
                  </button>
                );
              })}
            </div>
          </section>
        ))}
        {error && (
          <p role="alert" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200">
            {error}
          </p>
        )}
      </div>
      <div className="mt-6 flex justify-end">
        <button type="button" onClick={onClose} disabled={busy !== null} className={BUTTON.secondary}>
          {_('account.addOns.close')}
        </button>
      </div>
    </Modal>
  );
}
