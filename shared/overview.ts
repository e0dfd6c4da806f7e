import { z } from 'zod';

/** The ranges the admin's overview offers, in days (today included). */
export const OVERVIEW_RANGES = [7, 30, 90] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];

/** `GET /api/admin/overview?days=7|30|90` (7 when omitted). */
export const OverviewQuery = z.object({
  days: z
    .enum(OVERVIEW_RANGES.map(String) as ['7', '30', '90'], { error: 'days must be 7, 30 or 90' })
    .default('7')
    .transform((days) => Number(days) as OverviewRange),
});
export type OverviewQuery = z.infer<typeof OverviewQuery>;

/** One server's traffic in the range: bytes used per day, as the panel sync saw them. */
export interface OverviewServerTraffic {
  serverId: string;
  /** The server's name; "Removed server" once it has been deleted. */
  name: string;
  bytes: number[];
}

/**
 * `GET /api/admin/overview`: one value per UTC day of the range, oldest first, today last (each array
 * is as long as `dates`). Money is in minor units of `currency`.
 */
export interface AdminOverview {
  days: OverviewRange;
  /** The UTC days of the range, `YYYY-MM-DD`, oldest first. */
  dates: string[];
  /** Users created per day. */
  signups: number[];
  /** Trial accounts claimed per day (trials since deleted are not counted). */
  trials: number[];
  /** Succeeded payments per day, less what was refunded of them (by the day of the payment). */
  revenue: number[];
  /** What promo codes took off the day's succeeded payments: revenue before discounts is revenue plus this. */
  discounts: number[];
  /** The store's currency: `revenue` and `totals.revenue` count only payments made in it. */
  currency: string;
  /**
   * Money kept in the range in other currencies (payments from before the store changed its currency),
   * one total per currency, never added to `revenue`; empty when every payment is in `currency`.
   */
  otherCurrencies: Array<{ currency: string; revenue: number }>;
  /**
   * VPN accounts whose status was active: the day's last snapshot (taken hourly), today's counted now;
   * null for a day with no snapshot (before the overview existed, or the server was off).
   */
  activeAccounts: Array<number | null>;
  traffic: OverviewServerTraffic[];
  /** Customers who signed up through a referral link in the range, and referred customers who paid for the first time in it. */
  referrals: { signedUp: number; paid: number };
  totals: {
    /** All users now. */
    users: number;
    /** Active VPN accounts now. */
    activeAccounts: number;
    /** Revenue in the range (minor units of `currency`). */
    revenue: number;
    /** Discounts given in the range (minor units of `currency`). */
    discounts: number;
    signups: number;
    trials: number;
    trafficBytes: number;
  };
}
