import { escapeHtml } from '../../../shared/site-template.js';
import { EMAIL_STYLES, renderEmailFrame } from './email-layout.js';
import type { MailMessage } from './mailer.js';
import { money } from './money.js';

interface RefundEmailInput {
  to: string;
  brandName: string;
  publicUrl: URL;
  planName: string;
  /** Cents refunded by this notice's refund total, and what the payment was. */
  amountRefunded: number;
  amountPaid: number;
  currency: string;
  /** A full refund ends what the payment bought. */
  full: boolean;
  /** A crypto refund: the page where the customer claims it to a wallet of their choice. */
  claimUrl?: string | null;
}

/** Tells the customer that (part of) a payment was refunded, and what that means for the account. */
export function renderRefundEmail(input: RefundEmailInput): MailMessage {
  const { to, brandName, publicUrl, planName, full } = input;
  const refunded = money(input.amountRefunded, input.currency);
  const paid = money(input.amountPaid, input.currency);
  const dashboard = new URL('/dashboard', publicUrl).href;
  const headline = full ? `Your payment of ${paid} for ${planName} has been refunded.` : `${refunded} of your payment of ${paid} for ${planName} has been refunded.`;
  const effect = full
    ? 'The period this payment bought has been taken off your VPN account; if nothing else is paid for it, the account is paused.'
    : 'Your VPN account is not affected.';
  const timing = input.claimUrl
    ? 'Your payment was in crypto: claim the refund on the page below by entering the address of a wallet you control.'
    : 'Refunds usually reach your card within 5 to 10 business days, depending on your bank.';
  const claim = input.claimUrl ? `Claim your refund: ${input.claimUrl}` : null;
  const text = [headline, '', effect, '', timing, ...(claim ? ['', claim] : []), '', `Your accounts and payment history: ${dashboard}`].join('\n');
  const html = renderEmailFrame({
    to, brandName, publicUrl, title: `${brandName}: refund`,
    bodyHtml: `<p style="${EMAIL_STYLES.lead}">${escapeHtml(headline)}</p>
<p style="${EMAIL_STYLES.text}">${escapeHtml(effect)}</p>
<p style="${EMAIL_STYLES.text}">${escapeHtml(timing)}</p>${input.claimUrl ? `
<p style="margin:20px 0 0"><a href="${escapeHtml(input.claimUrl)}" style="${EMAIL_STYLES.button}">Claim your refund</a></p>` : ''}
<p style="margin:20px 0 0"><a href="${escapeHtml(dashboard)}" style="${EMAIL_STYLES.button}">Open your dashboard</a></p>`,
  });
  return { to, subject: full ? `${brandName}: your payment was refunded` : `${brandName}: part of your payment was refunded`, text, html };
}
