import { activeSubscriptionHost, originOf, type SubscriptionDomain } from '../../../../shared/subscription-domains.js';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { isoTime, isoTimeOrNull } from '../../lib/iso-time.js';
import { isPurchasable } from '../plans/index.js';
import type { AccountsServiceDeps } from './accounts-deps.js';
import type { AccountRecord } from './accounts.repo.js';
import { shownExpiry } from './shown-expiry.js';

/** An account as a customer sees it (a VpnAccount), and the settings that decide what they are shown. */

export interface ShownSettings {
  trialPlanId: string | null;
  renewalGraceDays: number;
  /** `<origin>/sub/` of the domain links are issued on. */
  subLinkBase: string;
}

/**
 * `<origin>/sub/` of the domain links are issued on (PUBLIC_URL's, or the first spare subscription domain not
 * blocked): a token is base64url, which a URL keeps as it is, so the link is this and the token (a `new URL`
 * per account showed in profiles).
 */
const subLinkBaseOf = (deps: Pick<AccountsServiceDeps, 'publicUrl'>, domains: readonly SubscriptionDomain[]) =>
  `${originOf(activeSubscriptionHost(domains, deps.publicUrl), deps.publicUrl)}/sub/`;

/** The settings that decide what a customer is shown of an account. */
export async function shownSettings(deps: Pick<AccountsServiceDeps, 'settings' | 'publicUrl'>): Promise<ShownSettings> {
  const { trialPlanId, renewalGraceDays, subscriptionDomains } = await deps.settings.getAppSettings();
  return { trialPlanId, renewalGraceDays, subLinkBase: subLinkBaseOf(deps, subscriptionDomains ?? []) };
}

/** What a customer sees of an account: our own `/sub/<token>` link, never the panel's address. */
export function toVpnAccount(account: AccountRecord, shown: ShownSettings, usageStale = false): VpnAccount {
  const provisioned = account.status !== 'suspended' && account.subscriptionUrl !== null;
  const ownLink = provisioned ? shown.subLinkBase + account.subToken : null;
  return {
    id: account.id,
    username: account.username,
    status: account.status,
    // The panel runs on past the paid end by the renewal grace or the plan's own grace days: the customer is shown the paid end.
    expireDate: isoTimeOrNull(shownExpiry(account.expireDate, account.paidUntil, Math.max(shown.renewalGraceDays, account.plan?.graceDays ?? 0))),
    dataLimitBytes: account.dataLimitBytes > 0 ? account.dataLimitBytes : null,
    usedTrafficBytes: account.usedTrafficBytes,
    createdAt: isoTime(account.createdAt),
    combinedUrl: ownLink,
    subscriptionUrl: ownLink,
    links: account.links,
    server: account.server,
    planName: account.planName,
    ...(account.planName && account.plan && Object.keys(account.plan.names).length > 0 ? { planNames: account.plan.names } : {}),
    planId: account.plan?.id ?? null,
    renewable: provisioned && account.plan !== null && isPurchasable(account.plan, shown.trialPlanId),
    usageStale,
    paymentConfirmed: account.paymentConfirmed,
    usageCheckedAt: isoTimeOrNull(account.usageCheckedAt),
    deviceLimit: account.deviceLimit,
    autoRenewFromWallet: account.walletAutoRenew,
    scheduledPlanChange: account.nextPlan ? { planId: account.nextPlan.planId, effectiveAt: account.nextPlan.at.toISOString() } : null,
  };
}
