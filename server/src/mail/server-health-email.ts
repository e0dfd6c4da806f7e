import { DEFAULT_LOCALE, localizedPath, type Locale } from '../../../shared/locales.js';
import { escapeHtml } from '../../../shared/site-template.js';
import { EMAIL_STYLES, renderEmailFrame } from './email-layout.js';
import type { MailMessage } from './mailer.js';
import { emailText, type EmailMessageKey } from './messages/index.js';
import { formatMoment } from './money.js';
import { DAY_MS } from '../../../shared/constants.js';

interface ServerHealthEmailInput {
  to: string;
  brandName: string;
  publicUrl: URL;
  serverName: string;
  state: 'up' | 'down';
  at: Date;
  /** The last check's error, for a server that went down. */
  lastError: string | null;
  /** The admin's language (their stored one; English when not given). */
  locale?: Locale;
}

/** Tells an admin that a panel server stopped answering its health checks, or answers again. */
export function renderServerHealthEmail(input: ServerHealthEmailInput): MailMessage {
  const { to, brandName, publicUrl, serverName, state, locale = DEFAULT_LOCALE } = input;
  const admin = new URL(localizedPath(locale, '/admin'), publicUrl).href;
  const t = (key: EmailMessageKey, values: Record<string, string> = {}) =>
    emailText(locale, key, { brand: brandName, server: serverName, when: formatMoment(input.at, locale), ...values });
  const down = state === 'down';
  const headline = down ? t('health.headlineDown') : t('health.headlineUp');
  const effect = down ? t('health.effectDown') : t('health.effectUp');
  const error = down && input.lastError ? t('health.lastError', { error: input.lastError }) : null;
  const text = [headline, '', effect, ...(error ? ['', error] : []), '', t('health.adminLine', { url: admin })].join('\n');
  const html = renderEmailFrame({
    to,
    brandName,
    publicUrl,
    locale,
    title: down ? t('health.titleDown') : t('health.titleUp'),
    bodyHtml: `<p style="${EMAIL_STYLES.lead}">${escapeHtml(headline)}</p>
<p style="${EMAIL_STYLES.text}">${escapeHtml(effect)}</p>
${error ? `<p style="${EMAIL_STYLES.text}">${escapeHtml(error)}</p>\n` : ''}<p style="margin:20px 0 0"><a href="${escapeHtml(admin)}" style="${EMAIL_STYLES.button}">${escapeHtml(t('health.adminButton'))}</a></p>`,
  });
  return { to, subject: down ? t('health.subjectDown') : t('health.subjectUp'), text, html };
}

interface TokenExpiringEmailInput {
  to: string;
  brandName: string;
  publicUrl: URL;
  serverName: string;
  expiresAt: Date;
  now: Date;
  locale?: Locale;
}

/** Tells an admin that a panel's API token ends soon (14 and 3 days before), or has ended: make a new one. */
export function renderTokenExpiringEmail(input: TokenExpiringEmailInput): MailMessage {
  const { to, brandName, publicUrl, serverName, locale = DEFAULT_LOCALE } = input;
  const admin = new URL(localizedPath(locale, '/admin/servers'), publicUrl).href;
  const days = Math.ceil((input.expiresAt.getTime() - input.now.getTime()) / DAY_MS);
  const t = (key: EmailMessageKey, values: Record<string, string | number> = {}) =>
    emailText(locale, key, { brand: brandName, server: serverName, day: formatMoment(input.expiresAt, locale), ...values });
  const headline = days > 0 ? t('health.tokenHeadline', { days }) : t('health.tokenEndedHeadline');
  const effect = t('health.tokenEffect');
  const text = [headline, '', effect, '', t('health.adminLine', { url: admin })].join('\n');
  const html = renderEmailFrame({
    to,
    brandName,
    publicUrl,
    locale,
    title: t('health.tokenSubject'),
    bodyHtml: `<p style="${EMAIL_STYLES.lead}">${escapeHtml(headline)}</p>
<p style="${EMAIL_STYLES.text}">${escapeHtml(effect)}</p>
<p style="margin:20px 0 0"><a href="${escapeHtml(admin)}" style="${EMAIL_STYLES.button}">${escapeHtml(t('health.adminButton'))}</a></p>`,
  });
  return { to, subject: t('health.tokenSubject'), text, html };
}
