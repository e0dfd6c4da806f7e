import { PassThrough } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createMailer } from './mailer.js';
import { renderOtpEmail } from './otp-email.js';

describe('e-mail', () => {
  it('prints the e-mail in a clear block when SMTP_URL is not set', async () => {
    const out = new PassThrough();
    let printed = '';
    out.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const mailer = createMailer(loadConfig({}), pino({ level: 'silent' }), out);
    expect(mailer.kind).toBe('log');
    await mailer.send(renderOtpEmail({ to: 'a@example.com', code: '042517', brandName: 'Acme VPN', publicUrl: new URL('http://localhost:3000') }));
    expect(printed).toContain('E-MAIL (not sent: SMTP_URL is not set');
    expect(printed).toContain('To:      a@example.com');
    expect(printed).toMatch(/^\s+042517$/m);
  });

  it('puts the brand and the code in the subject, text and HTML, and escapes the brand in HTML', () => {
    const mail = renderOtpEmail({ to: 'a@example.com', code: '123456', brandName: 'Bob & <Co>', publicUrl: new URL('https://vpn.example.com') });
    expect(mail.subject).toBe('123456 is your Bob & <Co> sign-in code');
    expect(mail.text).toContain('Your Bob & <Co> sign-in code is:');
    expect(mail.text).toContain('10 minutes');
    expect(mail.html).toContain('Bob &amp; &lt;Co&gt;');
    expect(mail.html).not.toContain('<Co>');
    expect(mail.html).toMatch(/font-size:40px[^>]*>123456</);
  });
});
