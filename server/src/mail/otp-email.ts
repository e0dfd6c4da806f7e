import { OTP_TTL_SECONDS } from '../../../shared/constants.js';
import { escapeHtml } from '../../../shared/site-template.js';
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
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${brand} sign-in code</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 16px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:480px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:#1e1b4b;color:#ffffff;padding:20px 28px;font-size:20px;font-weight:700">${brand}</td></tr>
<tr><td style="padding:28px">
<p style="margin:0 0 16px;font-size:16px">Your sign-in code is:</p>
<p style="margin:0 0 20px;font-size:40px;font-weight:700;letter-spacing:10px;font-family:Menlo,Consolas,monospace;color:#4338ca">${code}</p>
<p style="margin:0 0 12px;font-size:14px;color:#334155">Enter it on the sign-in page within ${minutes} minutes. It works once.</p>
<p style="margin:0;font-size:13px;color:#64748b">If you did not ask to sign in to ${brand}, ignore this e-mail: nobody can sign in without the code.</p>
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #e2e8f0;font-size:12px;color:#94a3b8"><a href="${escapeHtml(site)}" style="color:#6366f1">${escapeHtml(site)}</a> · sent to ${escapeHtml(to)}</td></tr>
</table></td></tr></table></body></html>`;

  return { to, subject: `${code} is your ${brandName} sign-in code`, text, html };
}
