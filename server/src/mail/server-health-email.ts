import { escapeHtml } from '../../../shared/site-template.js';
import { EMAIL_STYLES, renderEmailFrame } from './email-layout.js';
import type { MailMessage } from './mailer.js';

interface ServerHealthEmailInput {
  to: string;
  brandName: string;
  publicUrl: URL;
  serverName: string;
  state: 'up' | 'down';
  at: Date;
  /** The last check's error, for a server that went down. */
  lastError: string | null;
}

/** Tells an admin that a panel server stopped answering its health checks, or answers again. */
export function renderServerHealthEmail(input: ServerHealthEmailInput): MailMessage {
  const { to, brandName, publicUrl, serverName, state } = input;
  const admin = new URL('/admin', publicUrl).href;
  const when = input.at.toUTCString();
  const headline = state === 'down'
    ? `The panel server "${serverName}" is down: it has not answered its health checks since ${when}.`
    : `The panel server "${serverName}" is back up: it answered its health check at ${when}.`;
  const effect = state === 'down'
    ? 'New accounts and purchases skip it until it answers again; its existing customers may not be able to connect.'
    : 'New accounts and purchases can use it again.';
  const error = state === 'down' && input.lastError ? `Last error: ${input.lastError}` : null;
  const text = [headline, '', effect, ...(error ? ['', error] : []), '', `Servers in the admin panel: ${admin}`].join('\n');
  const html = renderEmailFrame({
    to, brandName, publicUrl, title: `${brandName}: server ${state}`,
    bodyHtml: `<p style="${EMAIL_STYLES.lead}">${escapeHtml(headline)}</p>
<p style="${EMAIL_STYLES.text}">${escapeHtml(effect)}</p>
${error ? `<p style="${EMAIL_STYLES.text}">${escapeHtml(error)}</p>\n` : ''}<p style="margin:20px 0 0"><a href="${escapeHtml(admin)}" style="${EMAIL_STYLES.button}">Open the admin panel</a></p>`,
  });
  return { to, subject: state === 'down' ? `${brandName}: server ${serverName} is down` : `${brandName}: server ${serverName} is back up`, text, html };
}
