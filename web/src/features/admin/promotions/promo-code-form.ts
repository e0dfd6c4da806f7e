import { decimalToMinor } from '../../../../../shared/money.js';
import type { CreatePromoCodeBody, PromoDuration } from '../../../../../shared/promo-codes.js';

/** The promo code form as typed: text fields stay text until sent. */
export interface PromoCodeFormValues {
  code: string;
  kind: 'percent' | 'amount';
  percentOff: string;
  /** In the store's currency, as a decimal ("2.50"). */
  amountOff: string;
  duration: PromoDuration;
  durationMonths: string;
  /** Empty: every plan. */
  planIds: string[];
  maxRedemptions: string;
  oncePerCustomer: boolean;
  /** `datetime-local` values (the admin's own time), or empty. */
  startsAt: string;
  endsAt: string;
}

export const NEW_PROMO_CODE: PromoCodeFormValues = {
  code: '',
  kind: 'percent',
  percentOff: '20',
  amountOff: '',
  duration: 'once',
  durationMonths: '3',
  planIds: [],
  maxRedemptions: '',
  oncePerCustomer: true,
  startsAt: '',
  endsAt: '',
};

/** A `datetime-local` value (local time) as an ISO instant; undefined when empty or not a date. */
function instant(value: string): string | undefined {
  if (!value) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

const whole = (value: string): number | undefined => (value.trim() === '' ? undefined : Number(value));

/**
 * The body of `POST /api/admin/promo-codes`. Numbers the admin typed go as they are (the server says what is
 * wrong with them, field by field); an amount is turned into the currency's minor units.
 */
export function toPromoCodeBody(values: PromoCodeFormValues, currency: string): CreatePromoCodeBody {
  const amountOff = values.kind === 'amount' ? (decimalToMinor(values.amountOff, currency) ?? Number.NaN) : undefined;
  return {
    code: values.code.trim(),
    ...(values.kind === 'percent' ? { percentOff: whole(values.percentOff) ?? Number.NaN } : { amountOff }),
    duration: values.duration,
    ...(values.duration === 'repeating' ? { durationMonths: whole(values.durationMonths) ?? Number.NaN } : {}),
    ...(values.planIds.length > 0 ? { planIds: values.planIds } : {}),
    ...(whole(values.maxRedemptions) !== undefined ? { maxRedemptions: whole(values.maxRedemptions) } : {}),
    oncePerCustomer: values.oncePerCustomer,
    ...(instant(values.startsAt) ? { startsAt: instant(values.startsAt) } : {}),
    ...(instant(values.endsAt) ? { endsAt: instant(values.endsAt) } : {}),
  };
}
