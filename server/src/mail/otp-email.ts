import { OTP_TTL_SECONDS } from '../../../shared/constants.js';
import { escapeHtml } from '../../../shared/site-template.js';
import { EMAIL_STYLES, renderEmailFrame } from './email-layout.js';
import type { MailMessage } from './mailer.js';
import { emailText, type EmailMessageKey } from './messages/index.js';
import { DEFAULT_LOCALE, type Locale } from '../../../shared/locales.js';

interface OtpEmailInput {
  to: string;
  code: string;
  brandName: string;
  publicUrl: URL;
  /** The language of the page the code was asked from (English when not given). */
  locale?: Locale;
}

/** The sign-in code e-mail, in the reader's language: the code first and large, in an HTML part and a plain-text part. */
export function renderOtpEmail({ to, code, brandName, publicUrl, locale = DEFAULT_LOCALE }: OtpEmailInput): MailMessage {
  const minutes = OTP_TTL_SECONDS / 60;
  const t = (key: EmailMessageKey) => emailText(locale, key, { brand: brandName, code, minutes });
  const text = [t('otp.lead'), '', `    ${code}`, '', t('otp.enterWithin'), '', t('otp.ignore'), '', publicUrl.origin].join('\n');
  const html = renderEmailFrame({
    to,
    brandName,
    publicUrl,
    locale,
    title: t('otp.title'),
    bodyHtml: `<p style="${EMAIL_STYLES.lead}">${escapeHtml(t('otp.leadShort'))}</p>
<p dir="ltr" style="margin:0 0 20px;font-size:40px;font-weight:700;letter-spacing:10px;font-family:Menlo,Consolas,monospace;color:#4338ca">${code}</p>
<p style="${EMAIL_STYLES.text}">${escapeHtml(t('otp.enterWithin'))}</p>
<p style="${EMAIL_STYLES.note}">${escapeHtml(t('otp.ignore'))}</p>`,
  });
  return { to, subject: t('otp.subject'), text, html };
}
