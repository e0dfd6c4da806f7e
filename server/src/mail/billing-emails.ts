import { escapeHtml } from '../../../shared/site-template.js';
import { EMAIL_STYLES, renderEmailFrame } from './email-layout.js';
import type { MailMessage } from './mailer.js';
import { money } from './money.js';

/** What every billing e-mail needs to address the customer and link back to the site. */
interface BillingEmailBase {
  to: string;
  brandName: string;
  publicUrl: URL;
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
  receiptNumber: string;
}

export interface RenewalReminderEmailInput extends BillingEmailBase, Charge {
  chargeAt: Date;
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
}

export type AccountPausedEmailInput = BillingEmailBase & Charge;

export interface SubscriptionCanceledEmailInput extends BillingEmailBase {
  planName: string;
  /** The end of the paid period; null when there is none. */
  endsAt: Date | null;
  byAdmin: boolean;
  now: Date;
}

const DAY_FORMAT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const MS_PER_DAY = 86_400_000;

/** A calendar day in English, in UTC: "24 December 2026". */
export function formatDay(date: Date): string {
  return DAY_FORMAT.format(date);
}

/** "Receipt for your payment": what was paid, what it bought, and what is charged next. */
export function renderReceiptEmail(input: ReceiptEmailInput): MailMessage {
  const amount = money(input.amount, input.currency);
  const accountLine = input.renewal
    ? `Your VPN account has been extended${until(input.periodEnd)}.`
    : `Your VPN account is active${until(input.periodEnd)}.`;
  return composeBillingEmail(input, `${input.brandName}: receipt for your payment`, [
    { kind: 'lead', text: `Thank you: we received your payment of ${amount} for ${input.planName}.` },
    {
      kind: 'facts',
      rows: [
        ['Amount', amount],
        ['Plan', input.planName],
        ['Paid on', formatDay(input.paidAt)],
        ['Receipt number', input.receiptNumber],
      ],
    },
    { kind: 'text', text: accountLine },
    ...describeNextCharge(input, amount),
    { kind: 'button', label: 'Open your dashboard', href: dashboardUrl(input.publicUrl) },
  ]);
}

/** "Your subscription renews on …": the card on file is about to be charged. */
export function renderRenewalReminderEmail(input: RenewalReminderEmailInput): MailMessage {
  const amount = money(input.amount, input.currency);
  const day = formatDay(input.chargeAt);
  return composeBillingEmail(input, `${input.brandName}: your subscription renews on ${day}`, [
    { kind: 'lead', text: `Your ${input.planName} subscription renews on ${day}.` },
    { kind: 'text', text: `The card on file will be charged ${amount} on ${day}.` },
    { kind: 'text', text: 'To stop it, cancel auto-renew on your dashboard before then.' },
    { kind: 'text', text: 'To use a different card, choose "Manage billing" on your dashboard.' },
    { kind: 'button', label: 'Open your dashboard', href: dashboardUrl(input.publicUrl) },
  ]);
}

/** For one-off plans: the account is about to end and will not renew by itself. */
export function renderPlanEndingEmail(input: PlanEndingEmailInput): MailMessage {
  const day = formatDay(input.endsAt);
  const daysLeft = countDaysBetween(input.now, input.endsAt);
  const ended = daysLeft < 0;
  const subject = ended ? 'your plan has ended — renew' : `your plan ends ${describeDaysLeft(daysLeft)} — renew`;
  const account = `Your VPN account ${input.accountName} on ${input.planName}`;
  return composeBillingEmail(input, `${input.brandName}: ${subject}`, [
    { kind: 'lead', text: ended ? `${account} ended on ${day}.` : `${account} ends on ${day}.` },
    {
      kind: 'text',
      text: ended
        ? 'Renew it from your dashboard to switch it on again.'
        : 'This plan does not renew by itself: renew it from your dashboard to keep it running.',
    },
    { kind: 'button', label: 'Renew on your dashboard', href: dashboardUrl(input.publicUrl) },
  ]);
}

export interface DataUsageEmailInput extends BillingEmailBase {
  accountName: string;
  percent: 80 | 100;
  limitBytes: number;
  expiresAt: Date | null;
}

const formatGb = (bytes: number): string => `${Number((bytes / 1024 ** 3).toFixed(bytes >= 10 * 1024 ** 3 ? 0 : 1))} GB`;

/** The account has used 80 % of its data, or all of it (sent once per period by the panel sync). */
export function renderDataUsageEmail(input: DataUsageEmailInput): MailMessage {
  const limit = formatGb(input.limitBytes);
  const all = input.percent >= 100;
  const until = input.expiresAt ? ` It resets when you renew; the plan runs until ${formatDay(input.expiresAt)}.` : '';
  return composeBillingEmail(input, all ? `${input.brandName}: you have used all your data` : `${input.brandName}: you have used ${input.percent}% of your data`, [
    {
      kind: 'lead',
      text: all
        ? `Your VPN account ${input.accountName} has used all of its ${limit} of data, so it no longer connects.`
        : `Your VPN account ${input.accountName} has used ${input.percent}% of its ${limit} of data.`,
    },
    { kind: 'text', text: `Renew or buy a plan with more data from your dashboard to keep connecting.${until}` },
    { kind: 'button', label: 'Open your dashboard', href: dashboardUrl(input.publicUrl) },
  ]);
}

/** A renewal charge failed; the VPN keeps working during the grace period. */
export function renderPaymentFailedEmail(input: PaymentFailedEmailInput): MailMessage {
  const amount = money(input.amount, input.currency);
  const retry: Block[] = input.nextAttemptAt
    ? [{ kind: 'note', text: `We will try the card again automatically on ${formatDay(input.nextAttemptAt)}.` }]
    : [];
  return composeBillingEmail(input, `${input.brandName}: your payment did not go through`, [
    { kind: 'lead', text: `The renewal charge of ${amount} for ${input.planName} did not go through.` },
    { kind: 'text', text: `Your VPN keeps working until ${formatDay(input.graceEndsAt)}.` },
    { kind: 'text', text: 'Update your card before then to keep it running.' },
    ...retry,
    { kind: 'button', label: 'Update your card', href: manageBillingUrl(input.publicUrl) },
  ]);
}

/** The renewal could not be charged after the grace period, so the account was paused. */
export function renderAccountPausedEmail(input: AccountPausedEmailInput): MailMessage {
  const amount = money(input.amount, input.currency);
  return composeBillingEmail(input, `${input.brandName}: your VPN account is paused`, [
    { kind: 'lead', text: `The renewal of ${amount} for ${input.planName} could not be charged, so your VPN account has been paused.` },
    { kind: 'text', text: 'Update your card: as soon as the payment goes through, the account is switched on again and extended.' },
    { kind: 'button', label: 'Update your card', href: manageBillingUrl(input.publicUrl) },
  ]);
}

/** Auto-renew was turned off, by the customer or by an administrator. */
export function renderSubscriptionCanceledEmail(input: SubscriptionCanceledEmailInput): MailMessage {
  const activeUntil = input.endsAt && input.endsAt.getTime() > input.now.getTime() ? input.endsAt : null;
  const who = input.byAdmin
    ? `${input.brandName} has cancelled your ${input.planName} subscription.`
    : `Your ${input.planName} subscription has been cancelled.`;
  const status = activeUntil ? `Your VPN account stays active until ${formatDay(activeUntil)}.` : 'Your VPN account has ended.';
  return composeBillingEmail(input, `${input.brandName}: your subscription was cancelled`, [
    { kind: 'lead', text: who },
    { kind: 'text', text: 'Auto-renew is off: there will be no further charges.' },
    { kind: 'text', text: status },
    ...describeCancelFollowUp(input, activeUntil),
    { kind: 'button', label: 'Open your dashboard', href: dashboardUrl(input.publicUrl) },
  ]);
}

/**
 * One piece of a message. Both parts of the e-mail are drawn from the same blocks, so the plain text
 * and the HTML always say the same thing.
 */
type Block =
  | { kind: 'lead' | 'text' | 'note'; text: string }
  | { kind: 'facts'; rows: ReadonlyArray<readonly [label: string, value: string]> }
  | { kind: 'button'; label: string; href: string };

function composeBillingEmail({ to, brandName, publicUrl }: BillingEmailBase, subject: string, blocks: Block[]): MailMessage {
  const signOff = `— ${brandName}\n${publicUrl.origin}`;
  const text = [...blocks.map(renderBlockText), signOff].join('\n\n');
  const html = renderEmailFrame({ to, brandName, publicUrl, title: subject, bodyHtml: blocks.map(renderBlockHtml).join('\n') });
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

function describeNextCharge({ recurring, nextChargeAt }: ReceiptEmailInput, amount: string): Block[] {
  if (!recurring) return [{ kind: 'note', text: 'This was a one-off payment: nothing will be charged again automatically.' }];
  const cancel = 'You can cancel auto-renew any time from your dashboard.';
  if (!nextChargeAt) return [{ kind: 'text', text: cancel }];
  return [{ kind: 'text', text: `Next charge: ${amount} on ${formatDay(nextChargeAt)}. ${cancel}` }];
}

function describeCancelFollowUp({ byAdmin, brandName }: SubscriptionCanceledEmailInput, activeUntil: Date | null): Block[] {
  if (byAdmin) return [{ kind: 'note', text: `If you did not expect this, contact ${brandName} support.` }];
  if (!activeUntil) return [];
  return [{ kind: 'note', text: 'If you did this by mistake, press Resume on your dashboard before then.' }];
}

function until(day: Date | null): string {
  return day ? ` until ${formatDay(day)}` : '';
}

/** Whole calendar days (UTC) from `from` to `to`: 0 on the same day, negative once `to` has passed. */
function countDaysBetween(from: Date, to: Date): number {
  const startOfDay = (date: Date) => Math.floor(date.getTime() / MS_PER_DAY);
  return startOfDay(to) - startOfDay(from);
}

function describeDaysLeft(days: number): string {
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  return `in ${days} days`;
}

function dashboardUrl(publicUrl: URL): string {
  return new URL('/dashboard', publicUrl).href;
}

function manageBillingUrl(publicUrl: URL): string {
  return new URL('/dashboard?billing=manage', publicUrl).href;
}
