import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface CaughtMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
}

export interface SmtpCatcher {
  url: string;
  messages: CaughtMail[];
  /** Waits for the next e-mail to `to` that arrived after `since` messages. */
  waitFor(to: string, options?: { after?: number; timeoutMs?: number }): Promise<CaughtMail>;
  /** The 6-digit code of the newest e-mail to `to`. */
  latestCode(to: string): Promise<string>;
  /** While true, every delivery is refused with a 550. */
  rejectAll: boolean;
  close(): Promise<void>;
}

function headerValue(raw: string, name: string): string {
  const match = new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw);
  return match ? match[1]!.replace(/\r?\n[ \t]/g, ' ').trim() : '';
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), as nodemailer writes a non-ASCII subject, decoded. */
export function decodeHeader(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, text: string) => {
    if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
    const bytes = text
      .replace(/%/g, '%25')
      .replace(/_/g, ' ')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes);
  });
}

function decodePart(headers: string, body: string): string {
  const encoding = headerValue(headers, 'Content-Transfer-Encoding').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/**
 * The plain-text and HTML parts of a caught e-mail, decoded (nodemailer writes non-ASCII text as
 * quoted-printable or base64), for asserting what the reader sees.
 */
export function mailParts(mail: CaughtMail): { text: string; html: string } {
  const parts: { text: string; html: string } = { text: '', html: '' };
  const [topHeaders = ''] = mail.raw.split(/\r?\n\r?\n/, 1);
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headerValue(topHeaders, 'Content-Type'))?.[1];
  const chunks = boundary ? mail.raw.split(`--${boundary}`).slice(1, -1) : [mail.raw];
  for (const chunk of chunks) {
    const match = /^\r?\n?([\s\S]*?)\r?\n\r?\n([\s\S]*)$/.exec(chunk);
    if (!match) continue;
    const [, headers = '', body = ''] = match;
    const type = headerValue(headers, 'Content-Type').toLowerCase();
    if (type.startsWith('text/plain')) parts.text = decodePart(headers, body.replace(/\r?\n$/, ''));
    if (type.startsWith('text/html')) parts.html = decodePart(headers, body.replace(/\r?\n$/, ''));
  }
  return parts;
}

/** A real SMTP server on 127.0.0.1 that keeps every message it receives. */
export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  const waiters: Array<() => void> = [];
  const catcher: SmtpCatcher = {
    url: '',
    messages,
    rejectAll: false,
    async waitFor(to, options = {}) {
      const after = options.after ?? 0;
      const deadline = Date.now() + (options.timeoutMs ?? 5000);
      for (;;) {
        const found = messages
          .slice(after)
          .reverse()
          .find((m) => m.to.includes(to.toLowerCase()));
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no e-mail to ${to} within the timeout`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    async latestCode(to) {
      const mail = await catcher.waitFor(to);
      const code = /^(\d{6})\b/.exec(mail.subject)?.[1]; // every language puts the code first
      if (!code) throw new Error(`no code in the subject ${JSON.stringify(mail.subject)}`);
      return code;
    },
    close: async () => {},
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (catcher.rejectAll) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw,
          subject: decodeHeader(headerValue(raw, 'Subject')),
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  catcher.url = `smtp://127.0.0.1:${port}`;
  catcher.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return catcher;
}
