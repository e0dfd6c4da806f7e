import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** `smtp` delivers; `log` prints the message to the server log (development without SMTP_URL). */
  readonly kind: 'smtp' | 'log';
  send(message: MailMessage): Promise<void>;
  /** True when the transport answers (SMTP: a connection and greeting). */
  verify(): Promise<boolean>;
  close(): void;
}

export function createMailer(config: Config, log: FastifyBaseLogger, out: NodeJS.WritableStream = process.stdout): Mailer {
  if (!config.smtpUrl) return createLogMailer(config, log, out);
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({ from: config.mailFrom, ...message });
    },
    async verify() {
      try {
        return await transport.verify();
      } catch {
        return false;
      }
    },
    close() {
      transport.close();
    },
  };
}

function createLogMailer(config: Config, log: FastifyBaseLogger, out: NodeJS.WritableStream): Mailer {
  return {
    kind: 'log',
    async send(message) {
      out.write(formatMailBlock(config.mailFrom, message));
      log.info({ to: message.to }, 'e-mail printed to the log (SMTP_URL is not set)');
    },
    async verify() {
      return true;
    },
    close() {},
  };
}

/** The clear block a developer sees in the log instead of a delivered e-mail. */
export function formatMailBlock(from: string, message: MailMessage): string {
  const rule = '='.repeat(72);
  const body = message.text
    .trimEnd()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  return [
    '',
    rule,
    '  E-MAIL (not sent: SMTP_URL is not set, so it is printed here)',
    rule,
    `  From:    ${from}`,
    `  To:      ${message.to}`,
    `  Subject: ${message.subject}`,
    '-'.repeat(72),
    body,
    rule,
    '',
    '',
  ].join('\n');
}
