import { DEFAULT_LOCALE, localizedPath, type Locale } from '../../../shared/locales.js';
import { escapeHtml } from '../../../shared/site-template.js';
import { EMAIL_STYLES, renderEmailFrame } from './email-layout.js';
import type { MailMessage } from './mailer.js';
import { emailText, type EmailMessageKey } from './messages/index.js';
import { formatDataSize, formatDay, formatPercent, money } from './money.js';
import { DAY_MS } from '../../../shared/constants.js';

export { formatDay } from './money.js';

/** What every billing e-mail needs to address the customer and link back to the site. */
export interface BillingEmailBase {
  to: string;
  brandName: string;
  publicUrl: URL;
  /** The customer's language (their stored one; English when not given): texts, amounts, days and links. */
  locale?: Locale;
}

/** A charge: `amount` is in the currency's minor units (cents). */
interface Charge {
  planName: string;
  amount: number;
  currency: string;
}

export interface ReceiptEmailInput extends BillingEmailBase, Charge {
  paidAt: Date;
  /** The end of the period this payment bought; null when it is not known yet. */
  periodEnd: Date | null;
  /** The payment extended an existing account rather than starting one. */
  renewal: boolean;
  /** The plan renews by itself (auto-renew on). */
  recurring: boolean;
  nextChargeAt: Date | null;
  /** What the next charge will be, when it differs from this payment (a promo code's discount has run out). */
  nextChargeAmount?: number;
  receiptNumber: string;
  /** Paid with a promo code: the code, the price before it and what it took off (minor units of `currency`). */
  promo?: { code: string; amountBefore: number; discount: number } | null;
  /** Referral credit that paid part of it (minor units of `currency`); `amount` is what was paid besides. */
  credit?: number | null;
  /** Extra days a referral added to the period it bought. */
  bonusDays?: number;
  /** A plan change: what the unused days of the plan before were credited (minor units of `currency`), and how many. */
  change?: { credit: number; creditDays: number } | null;
  /** A plan bought within the trial: the trial's account became it (the same link), its days after the trial's. */
  trialBecame?: boolean;
}

export interface RenewalReminderEmailInput extends BillingEmailBase, Charge {
  chargeAt: Date;
  /** A plan this store renews with the saved card (there is no billing portal to change it in). */
  renewedHere?: boolean;
}

export interface PlanEndingEmailInput extends BillingEmailBase {
  planName: string;
  endsAt: Date;
  accountName: string;
  /** When the e-mail is written: the subject counts the days from it. */
  now: Date;
}

export interface PaymentFailedEmailInput extends BillingEmailBase, Charge {
  /** The VPN keeps working until then. */
  graceEndsAt: Date;
  nextAttemptAt: Date | null;
  /** A plan this server renews (YooKassa): its saved card cannot be updated, the customer renews by hand instead. */
  renewedHere?: boolean;
}

export type AccountPausedEmailInput = BillingEmailBase & Charge;

export interface PartialPaymentEmailInput extends BillingEmailBase, Charge {
  /** What arrived, in minor units of `currency` (the order's). */
  amountPaid: number;
}

export interface SubscriptionResumedEmailInput extends BillingEmailBase, Charge {
  /** When the card is charged next (the end of the paid period); null when it is not known. */
  renewsAt: Date | null;
}

export interface SubscriptionCanceledEmailInput extends BillingEmailBase {
  planName: string;
  /** The end of the paid period; null when there is none. */
  endsAt: Date | null;
  byAdmin: boolean;
  now: Date;
}

type Values = Record<string, string | number>;

/** The texts, amounts and days of one e-mail in its reader's language. */
export function speaker(input: BillingEmailBase) {
  const locale = input.locale ?? DEFAULT_LOCALE;
  return {
    locale,
    t: (key: EmailMessageKey, values: Values = {}) => emailText(locale, key, { brand: input.brandName, ...values }),
    day: (date: Date) => formatDay(date, locale),
    money: (cents: number, currency: string) => money(cents, currency, locale),
  };
}

/** "Receipt for your payment": what was paid, what it bought, and what is charged next. */
export function renderReceiptEmail(input: ReceiptEmailInput): MailMessage {
  const { t, day, money: price } = speaker(input);
  const amount = price(input.amount, input.currency);
  const plan = input.planName;
  const accountLine = input.trialBecame
    ? t('billing.receipt.trialBecame', { plan, day: input.periodEnd ? day(input.periodEnd) : '' })
    : input.change
      ? t('billing.receipt.changedUntil', { plan, day: input.periodEnd ? day(input.periodEnd) : '' })
      : input.renewal
        ? input.periodEnd
          ? t('billing.receipt.extendedUntil', { day: day(input.periodEnd) })
          : t('billing.receipt.extended')
        : input.periodEnd
          ? t('billing.receipt.activeUntil', { day: day(input.periodEnd) })
          : t('billing.receipt.active');
  return composeBillingEmail(input, t('billing.receipt.subject'), [
    { kind: 'lead', text: t('billing.receipt.lead', { amount, plan }) },
    {
      kind: 'facts',
      rows: [
        [t('billing.receipt.factAmount'), amount],
        ...(input.promo
          ? [
              [
                t('billing.receipt.factPromo'),
                t('billing.receipt.promoValue', {
                  code: input.promo.code,
                  discount: price(input.promo.discount, input.currency),
                  price: price(input.promo.amountBefore, input.currency),
                }),
              ] as [string, string],
            ]
          : []),
        ...(input.credit
          ? [[t('billing.receipt.factCredit'), t('billing.receipt.creditValue', { credit: price(input.credit, input.currency) })] as [string, string]]
          : []),
        ...(input.change && input.change.credit > 0
          ? [
              [
                t('billing.receipt.factChangeCredit'),
                t('billing.receipt.changeCreditValue', { credit: price(input.change.credit, input.currency), days: input.change.creditDays }),
              ] as [string, string],
            ]
          : []),
        [t('billing.receipt.factPlan'), plan],
        [t('billing.receipt.factPaidOn'), day(input.paidAt)],
        [t('billing.receipt.factReceiptNumber'), input.receiptNumber],
      ],
    },
    { kind: 'text', text: input.bonusDays ? `${accountLine} ${t('billing.receipt.bonusDays', { days: input.bonusDays })}` : accountLine },
    ...describeNextCharge(input, input.nextChargeAmount === undefined ? amount : price(input.nextChargeAmount, input.currency)),
    { kind: 'button', label: t('billing.button.dashboard'), href: dashboardUrl(input) },
  ]);
}

/** "Your subscription renews on …": the card on file is about to be charged. */
export function renderRenewalReminderEmail(input: RenewalReminderEmailInput): MailMessage {
  const { t, day: formatted, money: price } = speaker(input);
  const amount = price(input.amount, input.currency);
  const day = formatted(input.chargeAt);
  return composeBillingEmail(input, t('billing.renewal.subject', { day }), [
    { kind: 'lead', text: t('billing.renewal.lead', { plan: input.planName, day }) },
    { kind: 'text', text: t('billing.renewal.charge', { amount, day }) },
    { kind: 'text', text: t('billing.renewal.howToStop') },
    { kind: 'text', text: t(input.renewedHere ? 'billing.renewal.changeCardHere' : 'billing.renewal.changeCard') },
    { kind: 'button', label: t('billing.button.dashboard'), href: dashboardUrl(input) },
  ]);
}

/** For one-off plans: the account is about to end and will not renew by itself. */
export function renderPlanEndingEmail(input: PlanEndingEmailInput): MailMessage {
  const { t, day: formatted } = speaker(input);
  const day = formatted(input.endsAt);
  const daysLeft = countDaysBetween(input.now, input.endsAt);
  const ended = daysLeft < 0;
  const names = { account: input.accountName, plan: input.planName, day };
  const subject = ended ? t('billing.planEnding.subjectEnded') : t('billing.planEnding.subject', { days: daysLeft });
  return composeBillingEmail(input, subject, [
    { kind: 'lead', text: ended ? t('billing.planEnding.leadEnded', names) : t('billing.planEnding.leadEnds', names) },
    { kind: 'text', text: ended ? t('billing.planEnding.renewEnded') : t('billing.planEnding.renew') },
    { kind: 'button', label: t('billing.button.renew'), href: dashboardUrl(input) },
  ]);
}

export interface DataUsageEmailInput extends BillingEmailBase {
  accountName: string;
  percent: 80 | 100;
  limitBytes: number;
  expiresAt: Date | null;
}

/** A data limit as the e-mails write it: whole GB from 10 GB up, else one decimal (1 GB = 1024³ bytes). */
function formatGb(bytes: number, locale: Locale): string {
  const gb = bytes / 1024 ** 3;
  const digits = bytes >= 10 * 1024 ** 3 ? 0 : 1;
  if (locale === 'en') return `${Number(gb.toFixed(digits))} GB`;
  const rounded = Number(gb.toFixed(digits));
  return formatDataSize(rounded, 'gigabyte', locale, Number.isInteger(rounded) ? 0 : digits);
}

/** The account has used 80 % of its data, or all of it (sent once per period by the panel sync). */
export function renderDataUsageEmail(input: DataUsageEmailInput): MailMessage {
  const { t, day, locale } = speaker(input);
  const limit = formatGb(input.limitBytes, locale);
  const all = input.percent >= 100;
  const percent = formatPercent(input.percent, locale);
  const account = input.accountName;
  return composeBillingEmail(input, all ? t('billing.dataUsage.subjectAll') : t('billing.dataUsage.subject', { percent }), [
    { kind: 'lead', text: all ? t('billing.dataUsage.leadAll', { account, limit }) : t('billing.dataUsage.lead', { account, percent, limit }) },
    { kind: 'text', text: input.expiresAt ? t('billing.dataUsage.renewUntil', { day: day(input.expiresAt) }) : t('billing.dataUsage.renew') },
    { kind: 'button', label: t('billing.button.dashboard'), href: dashboardUrl(input) },
  ]);
}

export interface DeviceLimitEmailInput extends BillingEmailBase {
  accountName: string;
  /** The account's device limit, all of it in use. */
  limit: number;
}

/** `/sub` refused a new device: the account already uses all the devices its plan allows (sent at most once a day). */
export function renderDeviceLimitEmail(input: DeviceLimitEmailInput): MailMessage {
  const { t } = speaker(input);
  return composeBillingEmail(input, t('billing.deviceLimit.subject'), [
    { kind: 'lead', text: t('billing.deviceLimit.lead', { account: input.accountName, limit: input.limit }) },
    { kind: 'text', text: t('billing.deviceLimit.remove') },
    { kind: 'button', label: t('billing.button.dashboard'), href: dashboardUrl(input) },
  ]);
}

/** A renewal charge failed; the VPN keeps working during the grace period. */
export function renderPaymentFailedEmail(input: PaymentFailedEmailInput): MailMessage {
  const { t, day, money: price } = speaker(input);
  const amount = price(input.amount, input.currency);
  const retry: Block[] = input.nextAttemptAt ? [{ kind: 'note', text: t('billing.paymentFailed.retry', { day: day(input.nextAttemptAt) }) }] : [];
  if (input.renewedHere) {
    return composeBillingEmail(input, t('billing.paymentFailed.subject'), [
      { kind: 'lead', text: t('billing.paymentFailed.lead', { amount, plan: input.planName }) },
      { kind: 'text', text: t('billing.paymentFailed.graceUntil', { day: day(input.graceEndsAt) }) },
      ...(input.nextAttemptAt ? retry : [{ kind: 'note' as const, text: t('billing.paymentFailed.lastTry') }]),
      { kind: 'text', text: t('billing.paymentFailed.renewByHand') },
      { kind: 'button', label: t('billing.button.renew'), href: dashboardUrl(input) },
    ]);
  }
  return composeBillingEmail(input, t('billing.paymentFailed.subject'), [
    { kind: 'lead', text: t('billing.paymentFailed.lead', { amount, plan: input.planName }) },
    { kind: 'text', text: t('billing.paymentFailed.graceUntil', { day: day(input.graceEndsAt) }) },
    { kind: 'text', text: t('billing.paymentFailed.updateCard') },
    ...retry,
    { kind: 'button', label: t('billing.button.updateCard'), href: manageBillingUrl(input) },
  ]);
}

/** The renewal could not be charged after the grace period, so the account was paused. */
export function renderAccountPausedEmail(input: AccountPausedEmailInput): MailMessage {
  const { t, money: price } = speaker(input);
  const amount = price(input.amount, input.currency);
  return composeBillingEmail(input, t('billing.paused.subject'), [
    { kind: 'lead', text: t('billing.paused.lead', { amount, plan: input.planName }) },
    { kind: 'text', text: t('billing.paused.howToResume') },
    { kind: 'button', label: t('billing.button.updateCard'), href: manageBillingUrl(input) },
  ]);
}

/** A crypto invoice expired part-paid: nothing was delivered, and what was sent will be refunded. */
export function renderPartialPaymentEmail(input: PartialPaymentEmailInput): MailMessage {
  const { t, money: price } = speaker(input);
  const amount = price(input.amount, input.currency);
  const paid = price(input.amountPaid, input.currency);
  return composeBillingEmail(input, t('billing.partialPayment.subject'), [
    { kind: 'lead', text: t('billing.partialPayment.lead', { plan: input.planName, paid, amount }) },
    { kind: 'text', text: t('billing.partialPayment.nothingDelivered') },
    { kind: 'text', text: t('billing.partialPayment.refund', { paid }) },
    { kind: 'note', text: t('billing.partialPayment.payAgain') },
    { kind: 'button', label: t('billing.button.dashboard'), href: dashboardUrl(input) },
  ]);
}

/** Auto-renew was turned off, by the customer or by an administrator. */
export function renderSubscriptionCanceledEmail(input: SubscriptionCanceledEmailInput): MailMessage {
  const { t, day } = speaker(input);
  const activeUntil = input.endsAt && input.endsAt.getTime() > input.now.getTime() ? input.endsAt : null;
  const plan = input.planName;
  const who = input.byAdmin ? t('billing.canceled.byAdmin', { plan }) : t('billing.canceled.byYou', { plan });
  const status = activeUntil ? t('billing.canceled.activeUntil', { day: day(activeUntil) }) : t('billing.canceled.ended');
  return composeBillingEmail(input, t('billing.canceled.subject'), [
    { kind: 'lead', text: who },
    { kind: 'text', text: t('billing.canceled.noMoreCharges') },
    { kind: 'text', text: status },
    ...describeCancelFollowUp(input, activeUntil),
    { kind: 'button', label: t('billing.button.dashboard'), href: dashboardUrl(input) },
  ]);
}

/**
 * Auto-renew was turned back on (Resume on the dashboard, or the provider's billing page): the
 * cancellation e-mail's counterpart, saying when the card is charged next and how to stop it again.
 */
export function renderSubscriptionResumedEmail(input: SubscriptionResumedEmailInput): MailMessage {
  const { t, day, money: price } = speaker(input);
  const amount = price(input.amount, input.currency);
  return composeBillingEmail(input, t('billing.resumed.subject'), [
    { kind: 'lead', text: t('billing.resumed.lead', { plan: input.planName }) },
    { kind: 'text', text: input.renewsAt ? t('billing.resumed.nextCharge', { amount, day: day(input.renewsAt) }) : t('billing.resumed.charges') },
    { kind: 'note', text: t('billing.resumed.howToStop') },
    { kind: 'button', label: t('billing.button.dashboard'), href: dashboardUrl(input) },
  ]);
}

/**
 * One piece of a message. Both parts of the e-mail are drawn from the same blocks, so the plain text
 * and the HTML always say the same thing.
 */
export type Block =
  | { kind: 'lead' | 'text' | 'note'; text: string }
  | { kind: 'facts'; rows: ReadonlyArray<readonly [label: string, value: string]> }
  | { kind: 'button'; label: string; href: string };

export function composeBillingEmail({ to, brandName, publicUrl, locale }: BillingEmailBase, subject: string, blocks: Block[]): MailMessage {
  const signOff = `— ${brandName}\n${publicUrl.origin}`;
  const text = [...blocks.map(renderBlockText), signOff].join('\n\n');
  const html = renderEmailFrame({ to, brandName, publicUrl, locale, title: subject, bodyHtml: blocks.map(renderBlockHtml).join('\n') });
  return { to, subject, text, html };
}

function renderBlockText(block: Block): string {
  switch (block.kind) {
    case 'facts': {
      const width = Math.max(...block.rows.map(([label]) => label.length)) + 1;
      return block.rows.map(([label, value]) => `${`${label}:`.padEnd(width)} ${value}`).join('\n');
    }
    case 'button':
      return `${block.label}: ${block.href}`;
    default:
      return block.text;
  }
}

function renderBlockHtml(block: Block): string {
  switch (block.kind) {
    case 'facts': {
      const rows = block.rows.map(
        ([label, value]) =>
          `<tr><td style="padding:2px 16px 2px 0;color:#64748b">${escapeHtml(label)}</td><td style="padding:2px 0;font-weight:600">${escapeHtml(value)}</td></tr>`,
      );
      return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;font-size:14px;color:#0f172a">${rows.join('')}</table>`;
    }
    case 'button':
      return `<p style="margin:20px 0 0"><a href="${escapeHtml(block.href)}" style="${EMAIL_STYLES.button}">${escapeHtml(block.label)}</a></p>`;
    default:
      return `<p style="${EMAIL_STYLES[block.kind]}">${escapeHtml(block.text)}</p>`;
  }
}

function describeNextCharge(input: ReceiptEmailInput, amount: string): Block[] {
  const { t, day } = speaker(input);
  if (!input.recurring) return [{ kind: 'note', text: t('billing.receipt.oneOff') }];
  if (!input.nextChargeAt) return [{ kind: 'text', text: t('billing.receipt.cancelAnyTime') }];
  return [{ kind: 'text', text: t('billing.receipt.nextCharge', { amount, day: day(input.nextChargeAt) }) }];
}

function describeCancelFollowUp(input: SubscriptionCanceledEmailInput, activeUntil: Date | null): Block[] {
  const { t } = speaker(input);
  if (input.byAdmin) return [{ kind: 'note', text: t('billing.canceled.contactSupport') }];
  if (!activeUntil) return [];
  return [{ kind: 'note', text: t('billing.canceled.resume') }];
}

/** Whole calendar days (UTC) from `from` to `to`: 0 on the same day, negative once `to` has passed. */
function countDaysBetween(from: Date, to: Date): number {
  const startOfDay = (date: Date) => Math.floor(date.getTime() / DAY_MS);
  return startOfDay(to) - startOfDay(from);
}

/** The dashboard in the reader's language: `/dashboard`, `/ru/dashboard`, … */
export function dashboardUrl({ publicUrl, locale }: { publicUrl: URL; locale?: Locale }): string {
  return new URL(localizedPath(locale ?? DEFAULT_LOCALE, '/dashboard'), publicUrl).href;
}

function manageBillingUrl(input: BillingEmailBase): string {
  return `${dashboardUrl(input)}?billing=manage`;
}
