import { DAY_MS } from '../../../../shared/constants.js';

/**
 * The expiry a customer is shown: the date they paid for. The panel's expiry is not it while a
 * subscription renews the account: it carries the renewal grace period (billing's paid-period rule),
 * and keeps carrying it after auto-renew is turned off until the paid-period job has caught up. The
 * paid-period ledger's end (`paidUntil`) is what every other screen (renewal date, "ends on") shows,
 * so it wins whenever the panel's expiry is within the grace of it (`graceDays`: the renewal grace, or the
 * plan's own grace days when they are longer — an account nothing renews runs that long past its end). An expiry further out than that
 * was given on top (an admin's extension) and is shown as it is; an account with nothing paid (a trial,
 * a free plan, an admin-made one) shows its panel's.
 */
export function shownExpiry(panelExpiry: Date | null, paidUntil: Date | null, graceDays: number): Date | null {
  if (!paidUntil) return panelExpiry;
  if (panelExpiry && panelExpiry.getTime() > paidUntil.getTime() + graceDays * DAY_MS) return panelExpiry;
  return paidUntil;
}
