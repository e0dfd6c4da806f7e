import { DEFAULT_LOCALE, localizedPath, textDirection, type Locale } from '../../../shared/locales.js';
import { escapeHtml } from '../../../shared/site-template.js';
import { emailText } from './messages/index.js';

export interface EmailFrame {
  to: string;
  brandName: string;
  /** The HTML document's title. */
  title: string;
  /** The message's own HTML, inside the card (trusted: escape every value put into it). */
  bodyHtml: string;
  publicUrl: URL;
  /** The reader's language (English when not given): the document's lang and direction, and the footer. */
  locale?: Locale;
}

/** Paragraph styles for a message body. */
export const EMAIL_STYLES = {
  lead: 'margin:0 0 16px;font-size:16px',
  text: 'margin:0 0 12px;font-size:14px;color:#334155',
  note: 'margin:0;font-size:13px;color:#64748b',
  button: 'display:inline-block;background:#4338ca;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:8px;font-size:14px;font-weight:600',
} as const;

/** Every e-mail's frame: the brand bar, a white card with the message, and the site and recipient below. */
export function renderEmailFrame({ to, brandName, title, bodyHtml, publicUrl, locale = DEFAULT_LOCALE }: EmailFrame): string {
  const brand = escapeHtml(brandName);
  const site = escapeHtml(publicUrl.origin);
  // The site's home page in the reader's language (English: the origin, as before).
  const home = locale === DEFAULT_LOCALE ? site : escapeHtml(new URL(localizedPath(locale, '/'), publicUrl).href);
  return `<!doctype html>
<html lang="${locale}" dir="${textDirection(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#0f172a">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="padding:32px 16px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:480px;background:#ffffff;border-radius:12px;overflow:hidden">
<tr><td style="background:#1e1b4b;color:#ffffff;padding:20px 28px;font-size:20px;font-weight:700">${brand}</td></tr>
<tr><td style="padding:28px">
${bodyHtml}
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #e2e8f0;font-size:12px;color:#94a3b8"><a href="${home}" style="color:#6366f1">${site}</a> · ${escapeHtml(emailText(locale, 'frame.sentTo', { email: to }))}</td></tr>
</table></td></tr></table></body></html>`;
}
