import { DEFAULT_LOCALE, type Locale } from '../../../shared/locales.js';
import { escapeHtml } from '../../../shared/site-template.js';
import { dashboardUrl } from './billing-emails.js';
import { EMAIL_STYLES, renderEmailFrame } from './email-layout.js';
import type { MailMessage } from './mailer.js';
import { emailText, type EmailMessageKey } from './messages/index.js';
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
  /** The payment was an auto-renewing subscription's: a full refund ended the subscription, a partial one left it running. */
  recurring?: boolean;
  /** A crypto refund: the page where the customer claims it to a wallet of their choice. */
  claimUrl?: string | null;
  /** The customer's language (their stored one; English when not given). */
  locale?: Locale;
}

/** Tells the customer that (part of) a payment was refunded, and what that means for the account. */
export function renderRefundEmail(input: RefundEmailInput): MailMessage {
  const { to, brandName, publicUrl, full, locale = DEFAULT_LOCALE } = input;
  const refunded = money(input.amountRefunded, input.currency, locale);
  const paid = money(input.amountPaid, input.currency, locale);
  const dashboard = dashboardUrl({ publicUrl, locale });
  const t = (key: EmailMessageKey, values: Record<string, string> = {}) =>
    emailText(locale, key, { brand: brandName, plan: input.planName, refunded, paid, ...values });
  const headline = full ? t('refund.headlineFull') : t('refund.headlinePartial');
  const effect = full
    ? [t('refund.effectFull'), ...(input.recurring ? [t('refund.effectSubscriptionEnded')] : [])].join(' ')
    : t(input.recurring ? 'refund.effectPartialRecurring' : 'refund.effectPartial');
  // Telegram gives Stars back at once, to the account that paid them.
  const timing = input.claimUrl ? t('refund.timingCrypto') : input.currency.toLowerCase() === 'xtr' ? t('refund.timingStars') : t('refund.timingCard');
  const claim = input.claimUrl ? t('refund.claimLine', { url: input.claimUrl }) : null;
  const text = [headline, '', effect, '', timing, ...(claim ? ['', claim] : []), '', t('refund.dashboardLine', { url: dashboard })].join('\n');
  const html = renderEmailFrame({
    to,
    brandName,
    publicUrl,
    locale,
    title: t('refund.title'),
    bodyHtml: `<p style="${EMAIL_STYLES.lead}">${escapeHtml(headline)}</p>
<p style="${EMAIL_STYLES.text}">${escapeHtml(effect)}</p>
<p style="${EMAIL_STYLES.text}">${escapeHtml(timing)}</p>${
      input.claimUrl
        ? `
<p style="margin:20px 0 0"><a href="${escapeHtml(input.claimUrl)}" style="${EMAIL_STYLES.button}">${escapeHtml(t('refund.claimButton'))}</a></p>`
        : ''
    }
<p style="margin:20px 0 0"><a href="${escapeHtml(dashboard)}" style="${EMAIL_STYLES.button}">${escapeHtml(t('billing.button.dashboard'))}</a></p>`,
  });
  return { to, subject: full ? t('refund.subjectFull') : t('refund.subjectPartial'), text, html };
}
