import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration from the environment', () => {
  it('has working defaults for a first start', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/app.db',
      smtpUrl: undefined,
      redisUrl: undefined,
      trustProxy: false,
    });
    expect(config.publicUrl.href).toBe('http://localhost:3000/');
    expect(config.mailFrom).toBe('no-reply@localhost');
    expect(config.desktopUpdatesDir).toBe(resolve('data/desktop-updates'));
  });

  it('makes the desktop update folder absolute, in DATA_DIR unless DESKTOP_UPDATES_DIR names one', () => {
    expect(loadConfig({ DATA_DIR: 'var/shop' }).desktopUpdatesDir).toBe(resolve('var/shop/desktop-updates'));
    expect(loadConfig({ DESKTOP_UPDATES_DIR: 'releases' }).desktopUpdatesDir).toBe(resolve('releases'));
    expect(loadConfig({ DESKTOP_UPDATES_DIR: '/srv/releases' }).desktopUpdatesDir).toBe('/srv/releases');
  });

  it('follows PORT in the default PUBLIC_URL and reads ADMIN_EMAILS normalised', () => {
    const config = loadConfig({ PORT: '8080', ADMIN_EMAILS: ' Boss@Example.com, ops@example.com ,' });
    expect(config.publicUrl.origin).toBe('http://localhost:8080');
    expect([...config.adminEmails]).toEqual(['boss@example.com', 'ops@example.com']);
  });

  it('names every bad variable with what it got', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', PUBLIC_URL: 'ftp://x', ADMIN_EMAILS: 'nobody' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as ConfigError).message;
      expect(message).toContain('PORT');
      expect(message).toContain('"eighty"');
      expect(message).toContain('DATABASE_URL: must start with sqlite: or postgres://');
      expect(message).toContain('PUBLIC_URL');
    }
    expect(() => loadConfig({ ADMIN_EMAILS: 'nobody' })).toThrow(/ADMIN_EMAILS: "nobody" is not an e-mail address/);
  });

  it('refuses to run in production without SMTP, a secret or a public URL, and says why', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SMTP_URL: required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/APP_SECRET: required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production', APP_SECRET: 'short', SMTP_URL: 'smtp://x', PUBLIC_URL: 'https://a.b' })).toThrow(
      /APP_SECRET: must be at least 32/,
    );
    const config = loadConfig({
      NODE_ENV: 'production',
      APP_SECRET: 'x'.repeat(32),
      SMTP_URL: 'smtps://u:p@mail.example.com',
      PUBLIC_URL: 'https://vpn.example.com',
    });
    expect(config.publicUrl.protocol).toBe('https:');
  });

  it('sweeps stuck accounts after 5 minutes, every minute, unless told otherwise; never below a minute in production', () => {
    expect(loadConfig({}).stuckAccounts).toEqual({ afterSeconds: 300, sweepIntervalSeconds: 60 });
    expect(loadConfig({ NODE_ENV: 'test', STUCK_ACCOUNT_AFTER_SECONDS: '3', STUCK_ACCOUNT_SWEEP_INTERVAL_SECONDS: '1' }).stuckAccounts).toEqual({
      afterSeconds: 3,
      sweepIntervalSeconds: 1,
    });
    expect(() => loadConfig({ STUCK_ACCOUNT_SWEEP_INTERVAL_SECONDS: '0' })).toThrow(/STUCK_ACCOUNT_SWEEP_INTERVAL_SECONDS/);
    const production = { NODE_ENV: 'production', APP_SECRET: 'x'.repeat(32), SMTP_URL: 'smtp://x', PUBLIC_URL: 'https://vpn.example.com' };
    expect(() => loadConfig({ ...production, STUCK_ACCOUNT_AFTER_SECONDS: '30' })).toThrow(/STUCK_ACCOUNT_AFTER_SECONDS: at least 60 in production/);
  });

  it("takes back a dead instance's jobs after a minute unless JOB_LEASE_SECONDS says otherwise (5 s to an hour)", () => {
    expect(loadConfig({}).jobLeaseSeconds).toBe(60);
    expect(loadConfig({ JOB_LEASE_SECONDS: '10' }).jobLeaseSeconds).toBe(10);
    expect(() => loadConfig({ JOB_LEASE_SECONDS: '4' })).toThrow(/JOB_LEASE_SECONDS/);
    expect(() => loadConfig({ JOB_LEASE_SECONDS: '3601' })).toThrow(/JOB_LEASE_SECONDS/);
    expect(() => loadConfig({ JOB_LEASE_SECONDS: 'soon' })).toThrow(/JOB_LEASE_SECONDS/);
  });

  it('reaches YooKassa and Crypto Pay at their own addresses unless YOOKASSA_API_URL or CRYPTOPAY_API_URL names another', () => {
    expect(loadConfig({})).toMatchObject({ yookassaApiUrl: undefined, cryptopayApiUrl: undefined });
    expect(loadConfig({ YOOKASSA_API_URL: 'http://127.0.0.1:12114/v3', CRYPTOPAY_API_URL: 'http://127.0.0.1:12113/api' })).toMatchObject({
      yookassaApiUrl: 'http://127.0.0.1:12114/v3',
      cryptopayApiUrl: 'http://127.0.0.1:12113/api',
    });
    expect(() => loadConfig({ YOOKASSA_API_URL: 'api.yookassa.ru' })).toThrow(/YOOKASSA_API_URL/);
    expect(() => loadConfig({ CRYPTOPAY_API_URL: 'ftp://pay.crypt.bot' })).toThrow(/CRYPTOPAY_API_URL/);
  });

  it('refuses link-local panel addresses unless ALLOW_LINK_LOCAL_PANELS is true', () => {
    expect(loadConfig({}).allowLinkLocalPanels).toBe(false);
    expect(loadConfig({ ALLOW_LINK_LOCAL_PANELS: 'false' }).allowLinkLocalPanels).toBe(false);
    expect(loadConfig({ ALLOW_LINK_LOCAL_PANELS: 'true' }).allowLinkLocalPanels).toBe(true);
    expect(loadConfig({ ALLOW_LINK_LOCAL_PANELS: '1' }).allowLinkLocalPanels).toBe(true);
    expect(() => loadConfig({ ALLOW_LINK_LOCAL_PANELS: 'yes' })).toThrow(/ALLOW_LINK_LOCAL_PANELS/);
  });

  it('serves no metrics unless METRICS_TOKEN (16+ characters) or METRICS_ADDRESS (host:port) says how', () => {
    expect(loadConfig({})).toMatchObject({ metricsToken: undefined, metricsAddress: undefined });
    expect(loadConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken).toBe('a'.repeat(16));
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS_ADDRESS: '127.0.0.1:9464' }).metricsAddress).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ METRICS_ADDRESS: '[::1]:9464' }).metricsAddress).toEqual({ host: '::1', port: 9464 });
    expect(() => loadConfig({ METRICS_ADDRESS: '9464' })).toThrow(/METRICS_ADDRESS/);
    expect(() => loadConfig({ METRICS_ADDRESS: '127.0.0.1:70000' })).toThrow(/METRICS_ADDRESS/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ SMTP_URL: '', PORT: '' }).port).toBe(3000);
  });
});
