import { OTP_TTL_SECONDS } from '../../../shared/constants.js';
import { escapeHtml } from '../../../shared/site-template.js';
import { EMAIL_STYLES, renderEmailFrame } from './email-layout.js';
import type { MailMessage } from './mailer.js';

interface OtpEmailInput {
  to: string;
  code: string;
  brandName: string;
  publicUrl: URL;
}

/** The sign-in code e-mail: the code first and large, in an HTML part and a plain-text part. */
export function renderOtpEmail({ to, code, brandName, publicUrl }: OtpEmailInput): MailMessage {
  const minutes = OTP_TTL_SECONDS / 60;
  const site = publicUrl.origin;
  const text = [
    `Your ${brandName} sign-in code is:`,
    '',
    `    ${code}`,
    '',
    `Enter it on the sign-in page within ${minutes} minutes. It works once.`,
    '',
    `If you did not ask to sign in to ${brandName}, ignore this e-mail: nobody can sign in without the code.`,
    '',
    site,
  ].join('\n');

  const brand = escapeHtml(brandName);
  const html = renderEmailFrame({
    to, brandName, publicUrl, title: `${brandName} sign-in code`,
    bodyHtml: `<p style="${EMAIL_STYLES.lead}">Your sign-in code is:</p>
<p style="margin:0 0 20px;font-size:40px;font-weight:700;letter-spacing:10px;font-family:Menlo,Consolas,monospace;color:#4338ca">${code}</p>
<p style="${EMAIL_STYLES.text}">Enter it on the sign-in page within ${minutes} minutes. It works once.</p>
<p style="${EMAIL_STYLES.note}">If you did not ask to sign in to ${brand}, ignore this e-mail: nobody can sign in without the code.</p>`,
  });

  return { to, subject: `${code} is your ${brandName} sign-in code`, text, html };
}
