import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { createPanelUrlCheck, isLinkLocalAddress, LINK_LOCAL_REFUSED } from './panel-address.js';

/** A resolver with fixed answers, recording what it was asked. */
function fakeDns(answers: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = async (hostname: string) => {
    asked.push(hostname);
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
  return { resolve, asked };
}

const refusal = async (promise: Promise<void>) => {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect(err).toMatchObject({ statusCode: 400, code: 'validation_failed', message: LINK_LOCAL_REFUSED, details: { fields: { url: LINK_LOCAL_REFUSED } } });
};

describe('link-local and cloud-metadata panel addresses', () => {
  it('knows which addresses are link-local or metadata', () => {
    for (const address of ['169.254.169.254', '169.254.0.1', '169.254.255.255', 'fe80::1', 'febf:ffff::1', 'fd00:ec2::254', '::ffff:169.254.169.254']) {
      expect(isLinkLocalAddress(address), address).toBe(true);
    }
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.0.0.5',
      '192.168.1.10',
      '169.253.255.255',
      '169.255.0.1',
      'fec0::1',
      'fd00:ec2::253',
      '203.0.113.9',
      'panel.example.com',
    ]) {
      expect(isLinkLocalAddress(address), address).toBe(false);
    }
  });

  it('refuses URLs whose host is such an address, without asking DNS', async () => {
    const dns = fakeDns({});
    const check = createPanelUrlCheck({ allowLinkLocal: false, resolve: dns.resolve });
    for (const url of [
      'http://169.254.169.254',
      'https://169.254.10.20:8443/api',
      'http://[fe80::1]:8000',
      'http://[fd00:ec2::254]',
      'http://[::ffff:169.254.169.254]',
      'http://0xa9fea9fe/',
    ]) {
      await refusal(check(url));
    }
    expect(dns.asked).toEqual([]);
  });

  it('refuses a name when any address it resolves to is link-local (metadata.google.internal)', async () => {
    const dns = fakeDns({ 'metadata.google.internal': ['169.254.169.254'], 'mixed.example.com': ['203.0.113.9', 'fe80::5'] });
    const check = createPanelUrlCheck({ allowLinkLocal: false, resolve: dns.resolve });
    await refusal(check('http://metadata.google.internal/computeMetadata/v1/'));
    await refusal(check('https://mixed.example.com:8443'));
    expect(dns.asked).toEqual(['metadata.google.internal', 'mixed.example.com']);
  });

  it('allows loopback, private and public panels, and leaves a name that does not resolve to the connection test', async () => {
    const dns = fakeDns({ localhost: ['127.0.0.1', '::1'], 'panel.example.com': ['203.0.113.9', '2001:db8::9'] });
    const check = createPanelUrlCheck({ allowLinkLocal: false, resolve: dns.resolve });
    for (const url of [
      'http://127.0.0.1:41234',
      'http://localhost:8000',
      'http://10.0.0.5:8000',
      'https://panel.example.com:8443',
      'http://[::1]:8000',
      'https://nowhere.invalid',
    ]) {
      await expect(check(url), url).resolves.toBeUndefined();
    }
  });

  it('allows everything when the operator sets ALLOW_LINK_LOCAL_PANELS', async () => {
    const dns = fakeDns({ 'metadata.google.internal': ['169.254.169.254'] });
    const check = createPanelUrlCheck({ allowLinkLocal: true, resolve: dns.resolve });
    for (const url of ['http://169.254.169.254', 'http://[fe80::1]:8000', 'http://[fd00:ec2::254]', 'http://metadata.google.internal']) {
      await expect(check(url), url).resolves.toBeUndefined();
    }
    expect(dns.asked).toEqual([]);
  });

  it('resolves real names through the system resolver by default', async () => {
    await expect(createPanelUrlCheck({ allowLinkLocal: false })('http://localhost:8000')).resolves.toBeUndefined();
  });
});
