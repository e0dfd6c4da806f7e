import type { Locale } from '../../../../shared/locales.js';
import { planText } from '../../../../shared/plan-translations.js';
import { activeSubscriptionHost, originOf } from '../../../../shared/subscription-domains.js';
import { renderDataUsageEmail, renderDeviceLimitEmail, renderPlanEndingEmail } from '../../mail/billing-emails.js';
import { emailText } from '../../mail/messages/index.js';
import { renderSubscriptionLinkMovedEmail } from '../../mail/subscription-link-emails.js';
import { renderWalletRenewalShortEmail } from '../../mail/wallet-emails.js';
import { named, type BillingEmailDeps, type ComposedEmail, type EmailFrame, type NoticeOf } from './billing-email-deps.js';
import { boughtPlanName } from './bought-plan-name.js';

/**
 * The e-mails about a VPN account rather than a payment: its plan ending, its wallet short of a renewal,
 * its subscription link moved to another address, its data nearly (or all) used, a new device refused over its limit.
 */

export async function composePlanEndingEmail(deps: BillingEmailDeps, notice: NoticeOf<'plan_ending'>, frame: EmailFrame): Promise<ComposedEmail> {
  const account = await deps.accounts.findById(notice.accountId);
  if (!account) return null;
  const subscription = await named(
    deps,
    (await deps.billing.listSubscriptionsForUser(account.userId)).find(
      (s) => s.vpnAccountId === account.id && s.currentPeriodEnd?.toISOString() === notice.endsAt,
    ),
  );
  // Without an order (a free or trial account): its plan's name in the reader's language, while the plan still has the account's name.
  const plan = !subscription && account.planId ? await deps.plans.findById(account.planId) : undefined;
  const accountPlanName = (locale: Locale) => (plan && plan.name === account.planName ? planText(plan, locale).name : account.planName);
  const planNameIn = (locale: Locale) =>
    (subscription ? boughtPlanName(subscription.metadata, locale) : accountPlanName(locale)) ?? emailText(locale, 'billing.yourPlan');
  return {
    userId: account.userId,
    render: (to, locale) =>
      renderPlanEndingEmail({
        to,
        locale,
        ...frame,
        planName: planNameIn(locale),
        endsAt: new Date(notice.endsAt),
        accountName: account.username,
        now: deps.clock(),
      }),
  };
}

export async function composeWalletRenewalShortEmail(
  deps: BillingEmailDeps,
  notice: NoticeOf<'wallet_renewal_short'>,
  frame: EmailFrame,
): Promise<ComposedEmail> {
  const account = await deps.accounts.findById(notice.accountId);
  // Renewed meanwhile (topped up in time), or auto-renew turned off: there is nothing to tell.
  if (!account || !account.walletAutoRenew || (account.paidUntil ?? account.expireDate)?.toISOString() !== notice.endsAt) return null;
  return {
    userId: account.userId,
    render: (to, locale) =>
      renderWalletRenewalShortEmail({
        to,
        locale,
        ...frame,
        accountName: account.username,
        planName: account.planName ?? emailText(locale, 'billing.yourPlan'),
        price: notice.price,
        needed: notice.needed,
        currency: notice.currency,
        endsAt: new Date(notice.endsAt),
        final: notice.final,
      }),
  };
}

export async function composeLinkMovedEmail(deps: BillingEmailDeps, notice: NoticeOf<'subscription_link_moved'>, frame: EmailFrame): Promise<ComposedEmail> {
  const account = await deps.accounts.findById(notice.accountId);
  const { subscriptionDomains } = await deps.settings.getAppSettings();
  // Moved again since (the newer move tells), or the account is gone: nothing to tell.
  if (!account || activeSubscriptionHost(subscriptionDomains, deps.publicUrl) !== notice.host) return null;
  const link = `${originOf(notice.host, deps.publicUrl)}/sub/${account.subToken}`;
  return { userId: account.userId, render: (to, locale) => renderSubscriptionLinkMovedEmail({ to, locale, ...frame, accountName: account.username, link }) };
}

export async function composeDataUsageEmail(deps: BillingEmailDeps, notice: NoticeOf<'data_usage'>, frame: EmailFrame): Promise<ComposedEmail> {
  const account = await deps.accounts.findById(notice.accountId);
  if (!account || account.dataLimitBytes <= 0) return null;
  return {
    userId: account.userId,
    render: (to, locale) =>
      renderDataUsageEmail({
        to,
        locale,
        ...frame,
        accountName: account.username,
        percent: notice.percent,
        limitBytes: account.dataLimitBytes,
        expiresAt: account.expireDate,
      }),
  };
}

export async function composeDeviceLimitEmail(deps: BillingEmailDeps, notice: NoticeOf<'device_limit'>, frame: EmailFrame): Promise<ComposedEmail> {
  const account = await deps.accounts.findById(notice.accountId);
  // Gone, or its limit lifted or raised meanwhile (renewed on a plan with more devices): nothing to tell.
  if (!account || account.deviceLimit === null || account.deviceLimit > notice.limit) return null;
  return {
    userId: account.userId,
    render: (to, locale) => renderDeviceLimitEmail({ to, locale, ...frame, accountName: account.username, limit: notice.limit }),
  };
}
