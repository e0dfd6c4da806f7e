import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { startFakeMarzban } from '../../../test/fake-panels/marzban.js';
import { startFakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import type { FakePanel } from '../../../test/fake-panels/types.js';
import { createTestClock, type TestClock } from '../../../test/test-clock.js';
import { createMarzbanDriver } from '../../panels/marzban.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';
import type { PanelDriver } from '../../panels/panel-driver.js';
import { errorsPlugin } from '../../plugins/errors.js';
import { createSettingsRepo } from '../settings/settings.repo.js';
import { deepLinkFor, deepLinksFor, platformFromUserAgent, VPN_CLIENT_APPS } from '../../../../shared/deep-links.js';
import { LruMap } from '../../lib/lru-map.js';
import { SwrCache } from './subscription-cache.js';
import { parseUserinfo, toPanelCopy } from './subscription-content.js';
import { formatForUserAgent, parseSubscriptionPath, PATH_FORMATS, wantsHtml } from './subscription-format.js';
import { renderSubscriptionPage } from './subscription-page.js';
import { contentDisposition, createSubscriptionService, type SubscriptionService } from './subscription.service.js';
import { createSubscriptionRepo } from './subscription.repo.js';
import { subscriptionRoutes } from './subscription.routes.js';

const PUBLIC_URL = 'http://localhost:3000';
const GB = 1024 ** 3;
const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');
const fromB64 = (value: string) => Buffer.from(value, 'base64').toString('utf8');
const UNAVAILABLE = 'Service is temporarily unavailable. Please try again later or contact support.';

describe('subscription format rules (clients.md)', () => {
  it.each([
    ['HiddifyNext/2.0 (android) like ClashMeta v2ray sing-box', 'sing-box'],
    ['hiddifynext/1.5.2 (windows)', 'sing-box'],
    ['SFA/1.9.0 (Android 14)', 'sing-box'],
    ['SFI/1.9.0', 'sing-box'],
    ['SFM/1.9.0', 'sing-box'],
    ['SFT/1.9.0', 'sing-box'],
    ['Karing/1.0.30', 'sing-box'],
    ['clash-verge/v2.0', 'clash-meta'],
    ['ClashMetaForAndroid/2.10.1.Meta', 'clash-meta'],
    ['clash.meta', 'clash-meta'],
    ['clash-meta/1.18', 'clash-meta'],
    ['FlClash/v0.8.40', 'clash-meta'],
    ['mihomo/1.18.5', 'clash-meta'],
    ['ClashX Pro/1.118', 'clash'],
    ['ClashforWindows/0.20', 'clash'],
    ['Stash/2.4.7 Clash/1.9.0', 'clash'],
    ['v2rayNG/1.8.0', 'base64'],
    ['v2rayN/6.42', 'base64'],
    ['Streisand', 'base64'],
    ['Shadowrocket/2070', 'base64'],
    ['Mozilla/5.0 (compatible; clash sing-box hiddifynext)', 'base64'],
    ['', 'base64'],
  ])('%s → %s', (ua, format) => {
    expect(formatForUserAgent(ua)).toBe(format);
  });

  it('reads path suffixes, and refuses malformed paths', () => {
    expect(parseSubscriptionPath('abc_DEF-123')).toEqual({ token: 'abc_DEF-123', forced: null });
    expect(parseSubscriptionPath('abc/')).toEqual({ token: 'abc', forced: null });
    expect(parseSubscriptionPath('abc/links')).toEqual({ token: 'abc', forced: 'links' });
    expect(parseSubscriptionPath('abc/v2ray/')).toEqual({ token: 'abc', forced: 'base64' });
    expect(parseSubscriptionPath('abc/sing-box')).toEqual({ token: 'abc', forced: 'sing-box' });
    expect(parseSubscriptionPath('abc/clash-meta')).toEqual({ token: 'abc', forced: 'clash-meta' });
    expect(parseSubscriptionPath('abc/clash')).toEqual({ token: 'abc', forced: 'clash' });
    for (const bad of ['', '/abc', 'abc/xray', 'abc/links/x', 'abc/constructor', 'abc/__proto__', 'a b', 'a%2Fb', 'x'.repeat(65), 'ä']) {
      expect(parseSubscriptionPath(bad), bad).toBeNull();
    }
    expect(parseSubscriptionPath('x'.repeat(64))).not.toBeNull();
  });

  it('sends browsers the page only when they ask for HTML', () => {
    expect(wantsHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(wantsHtml('*/*')).toBe(false);
    expect(wantsHtml(undefined)).toBe(false);
  });

  it('reads and formats subscription-userinfo', () => {
    expect(parseUserinfo('upload=1; download=2; total=3; expire=4')).toEqual({ upload: 1, download: 2, total: 3, expire: 4 });
    expect(parseUserinfo('upload=0;download=5')).toEqual({ upload: 0, download: 5, total: 0, expire: 0 });
    expect(parseUserinfo(' Upload = 7 ;DOWNLOAD=8.9; Total=10; expire=0; extra=1')).toEqual({ upload: 7, download: 8, total: 10, expire: 0 });
    expect(parseUserinfo('upload=1; download=-2; total=3x')).toEqual({ upload: 1, download: 0, total: 0, expire: 0 });
    expect(parseUserinfo('download=1=2; total=3')).toBeNull();
    expect(parseUserinfo('nonsense')).toBeNull();
    // Past 15 digits the one-match reading gives way to the general one: the same numbers.
    expect(parseUserinfo('upload=1234567890123456; download=2; total=3; expire=4')).toEqual({ upload: 1234567890123456, download: 2, total: 3, expire: 4 });
    expect(parseUserinfo(null)).toBeNull();
  });

  it('recognises the panels\' "disabled" placeholder in every format', () => {
    const vmess = `vmess://${b64(JSON.stringify({ ps: 'disabled', add: '127.0.0.1', port: '1', id: '00000000-0000-0000-0000-000000000000' }))}`;
    expect(toPanelCopy('v2ray', b64(vmess), null).placeholder).toBe(true);
    expect(toPanelCopy('v2ray', b64('vless://a@h:1#DE'), null).placeholder).toBe(false);
    const singBox = (tag: string) =>
      JSON.stringify({
        outbounds: [
          { type: 'selector', tag: 'proxy' },
          { type: 'vmess', tag, server: 'x' },
          { type: 'direct', tag: 'direct' },
        ],
      });
    expect(toPanelCopy('sing-box', singBox('disabled'), null).placeholder).toBe(true);
    expect(toPanelCopy('sing-box', singBox('DE'), null).placeholder).toBe(false);
    const clash = (name: string) => `mixed-port: 7890\nproxies:\n  - name: "${name}"\n    type: vmess\nproxy-groups:\n  - name: Proxy\n`;
    expect(toPanelCopy('clash', clash('disabled'), null).placeholder).toBe(true);
    expect(toPanelCopy('clash-meta', clash('DE'), null).placeholder).toBe(false);
    expect(() => toPanelCopy('sing-box', '<html>', null)).toThrow(/does not parse/);
    expect(() => toPanelCopy('v2ray', '<html>oops</html>', null)).toThrow();
  });

  it('names the file in both forms of content-disposition', () => {
    expect(contentDisposition('Lumen VPN')).toBe(`attachment; filename="Lumen VPN"; filename*=UTF-8''Lumen%20VPN`);
    expect(contentDisposition('Ünï "VPN"\r\n')).toBe(`attachment; filename="Uni VPN"; filename*=UTF-8''%C3%9Cn%C3%AF%20%22VPN%22`);
    expect(contentDisposition('')).toBe(`attachment; filename="subscription"; filename*=UTF-8''subscription`);
  });
});

describe('deep links (clients.md)', () => {
  const url = 'https://vpn.example.com/sub/AbC_123-x';
  const link = (id: string) =>
    deepLinkFor(
      VPN_CLIENT_APPS.find((app) => app.id === id)!,
      url,
      'Lumen VPN',
    ).href;
  const enc = encodeURIComponent;

  it("builds each client's own link", () => {
    expect(link('hiddify')).toBe(`hiddify://import/${url}#Lumen%20VPN`);
    expect(link('v2rayng')).toBe(`v2rayng://install-config?url=${enc(url)}#Lumen%20VPN`);
    expect(link('streisand')).toBe(`streisand://import/${url}#Lumen%20VPN`);
    expect(link('clash-verge')).toBe(`clash-verge://install-config?name=Lumen%20VPN&url=${enc(`${url}/clash-meta`)}`);
    expect(link('sing-box')).toBe(`sing-box://import-remote-profile?url=${enc(`${url}/sing-box`)}#Lumen%20VPN`);
    expect(link('happ')).toBe(`happ://add/${url}`);
    expect(link('v2raytun')).toBe(`v2raytun://import/${url}`);
    expect(link('incy')).toBe(`incy://add/${url}`);
    expect(link('shadowrocket')).toBe(`shadowrocket://add/${url}#Lumen%20VPN`);
    expect(link('karing')).toBe(`karing://install-config?name=Lumen%20VPN&url=${enc(url)}`);
    expect(link('mihomo-party')).toBe(`mihomo://install-config?name=Lumen%20VPN&url=${enc(`${url}/clash-meta`)}`);
    expect(link('flclash')).toBe(`flclash://install-config?url=${enc(`${url}/clash-meta`)}`);
    expect(link('nekobox')).toBe(`sn://subscription?name=Lumen%20VPN&url=${enc(url)}`);
    expect(link('v2box')).toBe(`v2box://install-sub?name=Lumen%20VPN&url=${enc(url)}`);
  });

  it('percent-encodes url= and puts it last; forced formats are routes we serve; never clash://', () => {
    for (const app of VPN_CLIENT_APPS) {
      const href = deepLinkFor(app, url, 'A&B #1').href;
      expect(href.startsWith('clash://')).toBe(false);
      if (href.includes('url=')) expect(href, app.id).toMatch(/[?&]url=[^&#/:?]+(#[^&]*)?$/);
      if (app.format) expect(PATH_FORMATS[app.format.slice(1)], app.id).toBeDefined();
    }
  });

  it('lists the apps of each platform and reads the platform from a User-Agent', () => {
    expect(deepLinksFor('android', url, 'x').map((l) => l.clientId)).toEqual([
      'hiddify',
      'v2rayng',
      'sing-box',
      'happ',
      'v2raytun',
      'incy',
      'karing',
      'flclash',
      'nekobox',
      'v2box',
    ]);
    expect(deepLinksFor('ios', url, 'x').map((l) => l.clientId)).toContain('streisand');
    expect(deepLinksFor('windows', url, 'x').map((l) => l.clientId)).not.toContain('v2rayng');
    expect(platformFromUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126')).toBe('android');
    expect(platformFromUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)')).toBe('ios');
    expect(platformFromUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('windows');
    expect(platformFromUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)')).toBe('macos');
    expect(platformFromUserAgent('Mozilla/5.0 (X11; Linux x86_64)')).toBe('linux');
    expect(platformFromUserAgent('curl/8')).toBeNull();
  });
});

describe('subscription caches', () => {
  it('LruMap forgets the least recently used', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    expect(lru.set('c', 3)).toEqual([['b', 2]]);
    expect([...lru.keys()]).toEqual(['a', 'c']);
  });

  it('SwrCache: fresh, stale while revalidating, one load per key, last copy on failure, bounded', async () => {
    let now = 0;
    const cache = new SwrCache<string>(
      { freshMs: 60_000, staleWhileRevalidateMs: 600_000, maxEntries: 3, maxBytes: 100, failureBackoffMs: 10_000, now: () => now },
      (value) => value.length,
    );
    let loads = 0;
    let fail = false;
    const load = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (fail) throw new Error('down');
      return `v${loads}`;
    };
    const first = await Promise.all(Array.from({ length: 10 }, () => cache.get('k', load)));
    expect(loads).toBe(1);
    expect(first.map((r) => r.value)).toEqual(Array(10).fill('v1'));
    expect((await cache.get('k', load)).state).toBe('fresh');

    now += 61_000;
    const stale = await cache.get('k', load);
    expect(stale).toMatchObject({ value: 'v1', state: 'stale' });
    await cache.whenIdle();
    expect(loads).toBe(2);
    expect(await cache.get('k', load)).toMatchObject({ value: 'v2', state: 'fresh' });

    fail = true;
    now += 700_000;
    expect(await cache.get('k', load)).toMatchObject({ value: 'v2', state: 'fallback' });
    expect(loads).toBe(3);
    expect(await cache.get('k', load)).toMatchObject({ value: 'v2', state: 'fallback' });
    expect(loads).toBe(3); // backing off
    await expect(cache.get('other', load)).rejects.toThrow('down');
    await expect(cache.get('other', load)).rejects.toThrow('down');
    expect(loads).toBe(4);

    fail = false;
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key, async () => key.repeat(10));
    expect(cache.size).toBe(3);
    await cache.get('big', async () => 'x'.repeat(90));
    expect(cache.bytes).toBeLessThanOrEqual(100);
    await cache.get('huge', async () => 'x'.repeat(101));
    expect(cache.peek('huge')).toBeUndefined();
  });
});

describe('the subscription page', () => {
  it('escapes every value and carries no script', () => {
    const html = renderSubscriptionPage({
      brandName: '<img src=x onerror=alert(1)> & "Co"',
      supportEmail: 'help"@example.com',
      subscriptionUrl: 'https://vpn.example.com/sub/tok"><script>',
      dashboardUrl: 'https://vpn.example.com/dashboard',
      supportUrl: 'https://vpn.example.com/support',
      username: '<b>user</b>',
      status: 'active',
      notice: null,
      usedBytes: 5 * GB,
      limitBytes: 50 * GB,
      expiresAt: new Date('2030-01-31T12:00:00Z'),
      platform: 'ios',
      now: new Date('2030-01-01T12:00:00Z'),
      qrSvg: '<svg></svg>',
    });
    expect(html).not.toMatch(/<script|<img|<b>user|onerror=alert\(1\)>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;');
    expect(html).toContain('5.00 GB of 50.00 GB');
    expect(html).toContain('31 Jan 2030');
    expect(html).toContain('30 days left');
    expect(html.indexOf('<summary>iOS</summary>')).toBeLessThan(html.indexOf('<summary>Android</summary>'));
  });

  it("declares the site's icon inline and references no file (a browser would ask for a missing /favicon.ico)", () => {
    const html = renderSubscriptionPage({
      brandName: 'Lumen VPN',
      supportEmail: 'help@example.com',
      subscriptionUrl: 'https://vpn.example.com/sub/tok',
      dashboardUrl: 'https://vpn.example.com/dashboard',
      supportUrl: 'https://vpn.example.com/support',
      username: 'user',
      status: 'active',
      notice: null,
      usedBytes: 0,
      limitBytes: GB,
      expiresAt: null,
      platform: null,
      now: new Date('2030-01-01T12:00:00Z'),
      qrSvg: '<svg></svg>',
    });
    const icon = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)">/.exec(html)?.[1];
    expect(icon).toMatch(/^data:image\/svg\+xml,/);
    expect(decodeURIComponent(icon!.slice('data:image/svg+xml,'.length))).toBe(
      readFileSync(new URL('../../../../web/public/favicon.svg', import.meta.url), 'utf8').trim(),
    );
    // Nothing else to load: every <link>, <script> and <img> the page has is inline data.
    const assets = [...html.matchAll(/<(?:link|script|img)\b[^>]*\b(?:href|src)="([^"]*)"/g)].map((m) => m[1]);
    expect(assets.filter((url) => !url!.startsWith('data:'))).toEqual([]);
  });
});

describe.each(TEST_DATABASES)('GET /sub/:token (%s)', (kind) => {
  let database: TestDatabase;
  let marzneshin: FakePanel;
  let marzban: FakePanel;
  let clock: TestClock;
  let service: SubscriptionService;
  let app: FastifyInstance;
  let settingsRepo: ReturnType<typeof createSettingsRepo>;
  /** Every response in this suite: none may reveal a panel's address or credentials. */
  const seen: LightMyRequestResponse[] = [];
  let seq = 0;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    marzneshin = await startFakeMarzneshin();
    marzban = await startFakeMarzban();
    const db = database.db;
    const now = new Date();
    await db('user_profiles').insert({ id: 'user-1', email: 'user@example.com', role: 'user', trial_used: false, created_at: now, updated_at: now });
    const server = (id: string, panelKind: string, panel: FakePanel, serviceId: string) => ({
      id,
      kind: panelKind,
      name: id,
      url: panel.url,
      username: panel.admin.username,
      password_encrypted: 'not-a-real-secret',
      service_id: serviceId,
      locations: 'all',
      status: 'active',
      created_at: now,
      updated_at: now,
    });
    await db('masterservers').insert([server('srv-mzn', 'marzneshin', marzneshin, '1'), server('srv-mzb', 'marzban', marzban, 'all')]);
    settingsRepo = createSettingsRepo(db);
    // The stored app_config as the settings service reads it (blank = the defaults, which the service fills in).
    const settings = {
      getAppSettings: async () => {
        const stored = await settingsRepo.getAppConfig();
        return { brandName: stored.brand_name ?? '', supportEmail: stored.support_email ?? '' };
      },
    };
    clock = createTestClock();
    service = createSubscriptionService({ db, settings, publicUrl: new URL(PUBLIC_URL), clock: clock.now, fetchTimeoutMs: 2000 });
    app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
    await app.register(errorsPlugin);
    await app.register(subscriptionRoutes, { service });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await marzneshin?.close();
    await marzban?.close();
    await database?.destroy();
  });

  type PanelKind = 'marzneshin' | 'marzban';
  interface TestAccount {
    id: string;
    token: string;
    username: string;
    panel: FakePanel;
    driver: PanelDriver;
    expiresAt: Date;
    limit: number;
    url: string;
  }

  async function makeAccount(panelKind: PanelKind, row: Record<string, unknown> = {}): Promise<TestAccount> {
    seq += 1;
    const panel = panelKind === 'marzneshin' ? marzneshin : marzban;
    const connection = { url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: panelKind === 'marzneshin' ? '1' : 'all' };
    const driver = panelKind === 'marzneshin' ? createMarzneshinDriver(connection) : createMarzbanDriver(connection);
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + 30 * 86_400_000);
    const limit = 50 * GB;
    const id = `acct-${seq}`;
    const created = await driver.createAccount({ username: `user_sub${String(seq).padStart(4, '0')}`, dataLimitBytes: limit, expiresAt, note: id });
    const token = randomBytes(24).toString('base64url');
    const now = new Date();
    await database.db('vpn_accounts').insert({
      id,
      user_id: 'user-1',
      master_server_id: panelKind === 'marzneshin' ? 'srv-mzn' : 'srv-mzb',
      username: created.username,
      status: 'active',
      expire_date: expiresAt,
      data_limit: limit,
      sub_token: token,
      subscription_url: created.subscriptionUrl,
      metadata: JSON.stringify({ used_traffic: 1000, links: [] }),
      created_at: now,
      updated_at: now,
      ...row,
    });
    return { id, token, username: created.username, panel, driver, expiresAt, limit, url: `${PUBLIC_URL}/sub/${token}` };
  }

  async function get(path: string, headers: Record<string, string> = {}) {
    const res = await app.inject({ method: 'GET', url: path, headers });
    seen.push(res);
    return res;
  }
  const subRequests = (panel: FakePanel) => panel.requests.filter((r) => r.path.startsWith('/sub/'));
  const setPanelUsage = (account: TestAccount, bytes: number) => {
    account.panel.users.get(account.username)!.used_traffic = bytes;
  };
  const BROWSER = {
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126 Mobile Safari/537.36',
  };

  describe.each(['marzneshin', 'marzban'] as const)('against a fake %s panel', (panelKind) => {
    it('gives v2rayNG base64 links with our headers, passing its User-Agent on', async () => {
      const account = await makeAccount(panelKind);
      const expected = (await account.driver.getAccount(account.username, { withLinks: true }))!.links!;
      expect(expected.length).toBeGreaterThan(0);
      setPanelUsage(account, 4242);

      const res = await get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(fromB64(res.body).split('\n')).toEqual(expected);
      expect(res.headers['subscription-userinfo']).toBe(`upload=0; download=4242; total=${account.limit}; expire=${account.expiresAt.getTime() / 1000}`);
      expect(res.headers['profile-update-interval']).toBe('12');
      expect(res.headers['profile-title']).toBe(`base64:${b64('Lumen VPN')}`);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="Lumen VPN"; filename*=UTF-8''Lumen%20VPN`);
      expect(res.headers['profile-web-page-url']).toBe(`${PUBLIC_URL}/dashboard`);
      expect(res.headers['support-url']).toBe(`${PUBLIC_URL}/support`);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.server).toBeUndefined();

      const asked = subRequests(account.panel).at(-1)!;
      expect(asked.path).toMatch(/\/v2ray$/);
      expect(asked.headers['user-agent']).toBe('v2rayNG/1.8.0');

      // Some clients read the headers with HEAD first.
      const head = await app.inject({ method: 'HEAD', url: `/sub/${account.token}`, headers: { 'user-agent': 'v2rayNG/1.8.0' } });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['subscription-userinfo']).toBe(res.headers['subscription-userinfo']);
    });

    it('gives Hiddify sing-box JSON and Clash Verge Clash Meta YAML', async () => {
      const account = await makeAccount(panelKind);
      const hiddify = await get(`/sub/${account.token}`, { 'user-agent': 'HiddifyNext/2.0 (android) like ClashMeta v2ray sing-box' });
      expect(hiddify.statusCode).toBe(200);
      expect(hiddify.headers['content-type']).toBe('application/json; charset=utf-8');
      const config = hiddify.json() as { outbounds: Array<{ type: string; server?: string }> };
      expect(config.outbounds.some((o) => o.server && ['vless', 'vmess', 'trojan', 'shadowsocks'].includes(o.type))).toBe(true);
      expect(subRequests(account.panel).at(-1)!.path).toMatch(/\/sing-box$/);
      expect(subRequests(account.panel).at(-1)!.headers['user-agent']).toBe('HiddifyNext/2.0 (android) like ClashMeta v2ray sing-box');

      const verge = await get(`/sub/${account.token}`, { 'user-agent': 'clash-verge/v2.0' });
      expect(verge.statusCode).toBe(200);
      expect(verge.headers['content-type']).toBe('text/yaml; charset=utf-8');
      expect(verge.body).toMatch(/^proxies:$/m);
      expect(verge.body).toMatch(/^ {2}- name: /m);
      expect(subRequests(account.panel).at(-1)!.path).toMatch(/\/clash-meta$/);

      const clashX = await get(`/sub/${account.token}`, { 'user-agent': 'ClashX Pro/1.118' });
      expect(clashX.headers['content-type']).toBe('text/yaml; charset=utf-8');
      expect(subRequests(account.panel).at(-1)!.path).toMatch(/\/clash$/);
      for (const res of [hiddify, verge, clashX]) {
        expect(res.headers['subscription-userinfo']).toMatch(/^upload=\d+; download=\d+; total=\d+; expire=\d+$/);
        expect(res.headers['profile-title']).toBe(`base64:${b64('Lumen VPN')}`);
      }
    });

    it('lets a path suffix force the format, whatever the User-Agent or Accept', async () => {
      const account = await makeAccount(panelKind);
      const ua = { 'user-agent': 'v2rayNG/1.8.0' };
      const links = await get(`/sub/${account.token}/links`, ua);
      expect(links.statusCode).toBe(200);
      expect(links.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(links.body.split('\n').every((line) => /^(vless|vmess|trojan|ss):\/\//.test(line))).toBe(true);
      expect(links.headers['cache-control']).toBe('no-store');

      const v2ray = await get(`/sub/${account.token}/v2ray/`, { 'user-agent': 'clash-verge/v2.0' });
      expect(fromB64(v2ray.body)).toBe(links.body);
      expect((await get(`/sub/${account.token}/sing-box`, ua)).headers['content-type']).toBe('application/json; charset=utf-8');
      expect((await get(`/sub/${account.token}/clash-meta`, ua)).body).toMatch(/^proxies:$/m);
      expect((await get(`/sub/${account.token}/clash`, ua)).headers['content-type']).toBe('text/yaml; charset=utf-8');
      const browserLinks = await get(`/sub/${account.token}/links`, BROWSER);
      expect(browserLinks.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(browserLinks.body).toBe(links.body);

      const unknown = await get(`/sub/${account.token}/xray`, ua);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('not_found');
    });
  });

  it('shows a browser the branded page: usage, QR code, deep links, and nothing of the panel', async () => {
    const account = await makeAccount('marzneshin', { metadata: JSON.stringify({ used_traffic: 5 * GB }) });
    const before = subRequests(account.panel).length;
    const res = await get(`/sub/${account.token}`, BROWSER);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = res.body;
    expect(html).toContain('Lumen VPN');
    expect(html).toMatch(/<svg[^>]*width="192"/);
    expect(html).toContain('5.00 GB of 50.00 GB');
    expect(html).toContain('days left');
    expect(html).toContain(`value="${account.url}"`);
    expect(html).toContain(`href="hiddify://import/${account.url}#Lumen%20VPN"`);
    expect(html).toContain(`href="v2rayng://install-config?url=${encodeURIComponent(account.url)}#Lumen%20VPN"`);
    expect(html).toContain(`href="sing-box://import-remote-profile?url=${encodeURIComponent(`${account.url}/sing-box`)}#Lumen%20VPN"`);
    expect(html).toContain(`href="clash-verge://install-config?name=Lumen%20VPN&amp;url=${encodeURIComponent(`${account.url}/clash-meta`)}"`);
    expect(html).toContain('Open in Streisand');
    expect(html.indexOf('<details open><summary>Android</summary>')).toBeGreaterThan(-1);
    expect(html.indexOf('<summary>Android</summary>')).toBeLessThan(html.indexOf('<summary>iOS</summary>'));
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain(account.panel.url.replace('http://', ''));
    expect(html).not.toContain(`/sub/${account.username}/`); // the panel's own subscription path
    expect(subRequests(account.panel).length).toBe(before); // the page needs nothing from the panel
  });

  it('escapes the brand name and puts it in every header form', async () => {
    const brand = 'Ünïcorn <VPN> & "Co"';
    await settingsRepo.saveAppConfig({ brand_name: brand }, new Date());
    service.invalidateBrand();
    try {
      const account = await makeAccount('marzneshin');
      const client = await get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' });
      expect(client.headers['profile-title']).toBe(`base64:${b64(brand)}`);
      expect(client.headers['content-disposition']).toBe(`attachment; filename="Unicorn <VPN> & Co"; filename*=UTF-8''${encodeURIComponent(brand)}`);
      const page = await get(`/sub/${account.token}`, BROWSER);
      expect(page.body).toContain('Ünïcorn &lt;VPN&gt; &amp; &quot;Co&quot;');
      expect(page.body).not.toContain('<VPN>');
    } finally {
      await settingsRepo.saveAppConfig({}, new Date());
      service.invalidateBrand();
    }
  });

  describe('accounts that cannot be used get a clear message, never configs', () => {
    it.each([
      ['expired', { status: 'expired' }, `This subscription has expired. Renew it at ${PUBLIC_URL}/dashboard.`],
      ['disabled', { status: 'disabled' }, `This subscription has been disabled. Contact support at ${PUBLIC_URL}/support.`],
      ['limited', { status: 'limited' }, `This subscription has used all of its data. Renew it or buy more at ${PUBLIC_URL}/dashboard.`],
      [
        'suspended (not paid)',
        { status: 'suspended', subscription_url: null },
        `This subscription is waiting for its payment. Complete it at ${PUBLIC_URL}/dashboard.`,
      ],
      ['past its expiry date', { expire_date: new Date(Date.now() - 60_000) }, `This subscription has expired. Renew it at ${PUBLIC_URL}/dashboard.`],
      [
        'over its quota',
        { metadata: JSON.stringify({ used_traffic: 50 * GB }) },
        `This subscription has used all of its data. Renew it or buy more at ${PUBLIC_URL}/dashboard.`,
      ],
    ])('%s', async (_name, row, message) => {
      const account = await makeAccount('marzneshin', row);
      const before = subRequests(account.panel).length;
      const res = await get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' });
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe(message);
      expect(res.headers['profile-web-page-url']).toBe(`${PUBLIC_URL}/dashboard`);
      expect(res.headers['subscription-userinfo']).toMatch(/^upload=0; download=\d+; total=\d+; expire=\d+$/);
      const forced = await get(`/sub/${account.token}/sing-box`, { 'user-agent': 'SFA/1.9' });
      expect(forced.statusCode).toBe(403);
      expect(forced.body).toBe(message);

      const page = await get(`/sub/${account.token}`, BROWSER);
      expect(page.statusCode).toBe(403);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain(message);
      expect(page.body).not.toContain('<svg');
      expect(page.body).not.toContain('hiddify://');
      expect(subRequests(account.panel).length).toBe(before);
    });

    it('when the panel serves its "disabled" placeholder though our row says active', async () => {
      const account = await makeAccount('marzneshin');
      await account.driver.setEnabled(account.username, false);
      for (const ua of ['v2rayNG/1.8.0', 'SFA/1.9', 'clash-verge/v2.0']) {
        const res = await get(`/sub/${account.token}`, { 'user-agent': ua });
        expect(res.statusCode, ua).toBe(403);
        expect(res.body).toBe(`This subscription has been disabled. Contact support at ${PUBLIC_URL}/support.`);
        expect(res.body).not.toContain('vmess://');
      }
      const page = await get(`/sub/${account.token}`, BROWSER);
      expect(page.statusCode).toBe(403);
      expect(page.body).toContain('This subscription has been disabled.');
    });

    it('when the panel says the account expired though our row has not caught up', async () => {
      const account = await makeAccount('marzban');
      const user = account.panel.users.get(account.username) as { expire: number | null };
      user.expire = Math.floor(Date.now() / 1000) - 60;
      const res = await get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' });
      expect(res.statusCode).toBe(403);
      expect(res.body).toBe(`This subscription has expired. Renew it at ${PUBLIC_URL}/dashboard.`);
    });

    it('an account still being set up: 503 for clients, the page with a note for browsers', async () => {
      const account = await makeAccount('marzneshin', { subscription_url: null });
      const res = await get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 'service_unavailable', message: 'This subscription is still being set up. Please try again in a minute.' });
      const page = await get(`/sub/${account.token}`, BROWSER);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('still being set up');
    });

    it.each([
      ['suspended', { status: 'suspended' }],
      ['active without its panel link yet', { subscription_url: null }],
    ])('a paid account not on the panel yet (%s): "your payment is confirmed", never "waiting for payment"', async (_name, row) => {
      const account = await makeAccount('marzneshin', row);
      const subscriptionId = `sub-${account.id}`;
      const now = new Date();
      await database
        .db('subscriptions')
        .insert({ id: subscriptionId, user_id: 'user-1', vpn_account_id: account.id, status: 'active', metadata: '{}', created_at: now, updated_at: now });
      await database.db('transactions').insert({
        id: `tx-${account.id}`,
        subscription_id: subscriptionId,
        user_id: 'user-1',
        status: 'succeeded',
        amount: 500,
        amount_refunded: 0,
        currency: 'usd',
        metadata: '{}',
        created_at: now,
        updated_at: now,
      });
      const res = await get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        code: 'service_unavailable',
        message: 'Your payment is confirmed; your account is being set up. Please try again in a minute.',
      });
    });
  });

  it('answers 404 not_found alike for unknown and malformed tokens', async () => {
    const unknown = await get(`/sub/${randomBytes(24).toString('base64url')}`, { 'user-agent': 'v2rayNG/1.8.0' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: 'not_found', message: expect.any(String) });
    for (const path of [
      `/sub/${'a'.repeat(65)}`,
      `/sub/${'a'.repeat(500)}`,
      '/sub/bad%20token',
      '/sub/bad%00',
      '/sub/a/b/c',
      '/sub/%E2%82%AC',
      '/sub',
      '/sub/',
      `/sub/${randomBytes(8).toString('hex')}/links`,
    ]) {
      const res = await get(path, BROWSER);
      expect(res.statusCode, path).toBe(404);
      expect(res.body, path).toBe(unknown.body);
    }
  });

  describe('the cache', () => {
    it('serves a second request, and the links and base64 formats, from one panel fetch', async () => {
      const account = await makeAccount('marzneshin');
      const before = subRequests(account.panel).length;
      const first = await get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' });
      const second = await get(`/sub/${account.token}`, { 'user-agent': 'Streisand/1.6' });
      const links = await get(`/sub/${account.token}/links`);
      expect(second.body).toBe(first.body);
      expect(fromB64(first.body)).toBe(links.body);
      expect(subRequests(account.panel).length).toBe(before + 1);
      await get(`/sub/${account.token}`, { 'user-agent': 'SFI/1.9' });
      await get(`/sub/${account.token}`, { 'user-agent': 'SFA/1.9' });
      expect(subRequests(account.panel).length).toBe(before + 2); // one per format
    });

    it('makes one panel request for many concurrent ones', async () => {
      const account = await makeAccount('marzban');
      const before = subRequests(account.panel).length;
      account.panel.faults.delayMs = 100;
      try {
        const all = await Promise.all(Array.from({ length: 20 }, () => get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' })));
        expect(all.every((res) => res.statusCode === 200 && res.body === all[0]!.body)).toBe(true);
      } finally {
        account.panel.faults.delayMs = 0;
      }
      expect(subRequests(account.panel).length).toBe(before + 1);
    });

    it('is fresh for 60 s, then serves the cached copy while it refreshes in the background', async () => {
      const account = await makeAccount('marzneshin');
      const ua = { 'user-agent': 'v2rayNG/1.8.0' };
      const before = subRequests(account.panel).length;
      expect((await get(`/sub/${account.token}`, ua)).headers['subscription-userinfo']).toContain('download=0;');
      setPanelUsage(account, 777);

      clock.advance(59);
      expect((await get(`/sub/${account.token}`, ua)).headers['subscription-userinfo']).toContain('download=0;');
      expect(subRequests(account.panel).length).toBe(before + 1);

      clock.advance(2);
      const stale = await get(`/sub/${account.token}`, ua);
      expect(stale.statusCode).toBe(200);
      expect(stale.headers['subscription-userinfo']).toContain('download=0;');
      await service.whenIdle();
      expect(subRequests(account.panel).length).toBe(before + 2);
      expect((await get(`/sub/${account.token}`, ua)).headers['subscription-userinfo']).toContain('download=777;');
      expect(subRequests(account.panel).length).toBe(before + 2);

      // Long unused: the stored copy at once (the panel is not waited for), refreshed for the next request.
      setPanelUsage(account, 888);
      clock.advance(3 * 3600);
      expect((await get(`/sub/${account.token}`, ua)).headers['subscription-userinfo']).toContain('download=777;');
      await service.whenIdle();
      expect(subRequests(account.panel).length).toBe(before + 3);
      expect((await get(`/sub/${account.token}`, ua)).headers['subscription-userinfo']).toContain('download=888;');
      expect(subRequests(account.panel).length).toBe(before + 3);
    });

    it('panel down after one good fetch → the last good copy', async () => {
      const account = await makeAccount('marzneshin');
      const ua = { 'user-agent': 'SFA/1.9' };
      const good = await get(`/sub/${account.token}`, ua);
      expect(good.statusCode).toBe(200);
      account.panel.faults.down = true;
      try {
        clock.advance(61);
        const stale = await get(`/sub/${account.token}`, ua);
        expect(stale.statusCode).toBe(200);
        expect(stale.body).toBe(good.body);
        await service.whenIdle();
        clock.advance(3 * 3600);
        const fallback = await get(`/sub/${account.token}`, ua);
        expect(fallback.statusCode).toBe(200);
        expect(fallback.body).toBe(good.body);
        expect(fallback.headers['profile-title']).toBe(`base64:${b64('Lumen VPN')}`);
      } finally {
        account.panel.faults.down = false;
      }
    });

    it('panel down with nothing cached → 503 service_unavailable, then recovers', async () => {
      const account = await makeAccount('marzban');
      account.panel.faults.down = true;
      try {
        const res = await get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' });
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ code: 'service_unavailable', message: UNAVAILABLE });
        expect(res.headers['retry-after']).toBe('30');
      } finally {
        account.panel.faults.down = false;
      }
      clock.advance(11);
      expect((await get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' })).statusCode).toBe(200);
    });

    it('a panel error answer is not passed on', async () => {
      const account = await makeAccount('marzneshin');
      // This account's own route: a background refresh of another test's account must not take the failure.
      account.panel.faults.failNext.push({ pathPrefix: `/sub/${account.username}/`, status: 500 });
      const res = await get(`/sub/${account.token}`, { 'user-agent': 'v2rayNG/1.8.0' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ code: 'service_unavailable', message: UNAVAILABLE });
    });

    it('keeps serving an account kept in memory while the database is unreachable', async () => {
      const account = await makeAccount('marzneshin');
      let dbDown = false;
      const real = createSubscriptionRepo(database.db);
      const local = createTestClock();
      const resilient = createSubscriptionService({
        db: database.db,
        settings: { getAppSettings: async () => ({ brandName: 'B', supportEmail: 's@example.com' }) },
        publicUrl: new URL(PUBLIC_URL),
        clock: local.now,
        repo: { findByTokens: (tokens) => (dbDown ? Promise.reject(new Error('database down')) : real.findByTokens(tokens)), ownerLocale: real.ownerLocale },
      });
      // Asked for twice within a minute: kept.
      for (let i = 0; i < 2; i++) {
        expect((await resilient.handle({ path: account.token, userAgent: 'v2rayNG/1.8.0' })).statusCode).toBe(200);
        local.advance(10);
      }
      dbDown = true;
      local.advance(30);
      expect((await resilient.handle({ path: account.token, userAgent: 'v2rayNG/1.8.0' })).statusCode).toBe(200);
      await expect(resilient.handle({ path: 'never-seen-token', userAgent: 'v2rayNG/1.8.0' })).rejects.toThrow('database down');
    });

    it('keeps an account read from the database in memory only when it is asked for again soon (within half a minute surely, after a minute never)', async () => {
      const [often, rarely] = [await makeAccount('marzneshin'), await makeAccount('marzneshin')];
      const real = createSubscriptionRepo(database.db);
      const settings = { getAppSettings: async () => ({ brandName: 'B', supportEmail: 's@example.com' }) };
      // Fetched from the panel once, by another instance: stored in the database.
      const other = createSubscriptionService({ db: database.db, settings, publicUrl: new URL(PUBLIC_URL), clock: clock.now });
      for (const account of [often, rarely]) expect((await other.handle({ path: account.token, userAgent: 'v2rayNG/1.8.0' })).statusCode).toBe(200);
      await other.whenIdle();

      const lookups: string[] = [];
      const local = createTestClock();
      const service = createSubscriptionService({
        db: database.db,
        settings,
        publicUrl: new URL(PUBLIC_URL),
        clock: local.now,
        repo: { findByTokens: (tokens, source) => (lookups.push(...tokens), real.findByTokens(tokens, source)), ownerLocale: real.ownerLocale },
      });
      const ask = async (token: string) => {
        const reply = await service.handle({ path: token, userAgent: 'v2rayNG/1.8.0' });
        expect(reply.statusCode).toBe(200);
        expect(String(reply.body)).not.toBe('');
      };
      await ask(often.token);
      expect(service.stats()).toMatchObject({ accounts: 0, entries: 0 });
      local.advance(20);
      await ask(often.token);
      expect(service.stats()).toMatchObject({ accounts: 1, entries: 1 });
      local.advance(1);
      await ask(often.token); // the row and its configuration from memory
      expect(lookups).toEqual([often.token, often.token]);

      await ask(rarely.token);
      local.advance(61);
      await ask(rarely.token); // a minute later: asked for once again, not kept
      expect(service.stats().accounts).toBe(1);
      local.advance(1);
      await ask(rarely.token); // again within the minute: kept
      expect(service.stats().accounts).toBe(2);
      await ask(rarely.token);
      expect(lookups).toEqual([often.token, often.token, rarely.token, rarely.token, rarely.token]);
      await service.whenIdle();
    });

    it('looks the accounts of concurrent requests up together: one statement per format, each its own row and stored copy', async () => {
      const [first, second, third] = [await makeAccount('marzneshin'), await makeAccount('marzban'), await makeAccount('marzneshin')];
      const real = createSubscriptionRepo(database.db);
      const batches: Array<{ tokens: string[]; source: string }> = [];
      const fresh = () =>
        createSubscriptionService({
          db: database.db,
          settings: { getAppSettings: async () => ({ brandName: 'B', supportEmail: 's@example.com' }) },
          publicUrl: new URL(PUBLIC_URL),
          clock: clock.now,
          fetchTimeoutMs: 2000,
          repo: {
            findByTokens: (tokens, source) => {
              batches.push({ tokens: [...tokens], source: source! });
              return real.findByTokens(tokens, source);
            },
            ownerLocale: real.ownerLocale,
          },
        });
      const V2RAY = 'v2rayNG/1.8.0';
      const SING_BOX = 'SFA/1.9.0';
      const ask = (svc: SubscriptionService, token: string, userAgent = V2RAY) =>
        svc.handle({ path: token, userAgent }).then(
          (reply) => reply,
          (err: { statusCode: number }) => err.statusCode,
        );

      const cold = fresh();
      const answers = await Promise.all([ask(cold, first.token), ask(cold, second.token), ask(cold, 'no-such-token-at-all'), ask(cold, third.token, SING_BOX)]);
      expect(batches).toEqual([
        { tokens: [first.token, second.token, 'no-such-token-at-all'], source: 'v2ray' },
        { tokens: [third.token], source: 'sing-box' },
      ]);
      expect(answers[2]).toBe(404);
      for (const [i, account] of [
        [0, first],
        [1, second],
      ] as const) {
        const reply = answers[i] as Exclude<(typeof answers)[number], number>;
        expect(reply.statusCode).toBe(200);
        expect(fromB64(reply.body.toString())).toContain(account.username);
      }
      expect(JSON.parse((answers[3] as Exclude<(typeof answers)[number], number>).body.toString())).toHaveProperty('outbounds');
      await cold.whenIdle();

      // The copies fetched above are stored: another instance's batch reads each with its own row.
      const stored = await real.findByTokens([third.token, first.token, second.token, 'no-such-token-at-all'], 'v2ray');
      expect([...stored.keys()].sort()).toEqual([first.token, second.token, third.token].sort());
      expect(stored.get(first.token)).toMatchObject({
        id: first.id,
        username: first.username,
        storedCopy: { source: 'v2ray', copy: { subscriptionUrl: expect.any(String) } },
      });
      expect(stored.get(second.token)).toMatchObject({
        id: second.id,
        panelKind: 'marzban',
        storedCopy: { source: 'v2ray', copy: { subscriptionUrl: expect.any(String) } },
      });
      // The third was fetched as sing-box only: no v2ray copy to read with it.
      expect(stored.get(third.token)?.storedCopy).toEqual({ source: 'v2ray', copy: null });
      expect((await real.findByTokens([third.token], 'sing-box')).get(third.token)?.storedCopy?.copy?.body).toContain('outbounds');
      await expect(real.findByTokens(Array.from({ length: 101 }, (_, i) => `token-${i}`))).rejects.toThrow(RangeError);

      // A burst larger than one statement takes: batches of at most 100.
      batches.length = 0;
      const burst = fresh();
      const many = await Promise.all(Array.from({ length: 150 }, (_, i) => ask(burst, `unknown-${i}`)));
      expect(many.every((answer) => answer === 404)).toBe(true);
      expect(batches.map((batch) => batch.tokens.length)).toEqual([100, 50]);
    });

    it('reads one lookup at a time: the requests that come while one is read go together in the next', async () => {
      const accounts = [await makeAccount('marzneshin'), await makeAccount('marzneshin'), await makeAccount('marzneshin'), await makeAccount('marzneshin')];
      const real = createSubscriptionRepo(database.db);
      const batches: string[][] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const service = createSubscriptionService({
        db: database.db,
        settings: { getAppSettings: async () => ({ brandName: 'B', supportEmail: 's@example.com' }) },
        publicUrl: new URL(PUBLIC_URL),
        clock: clock.now,
        fetchTimeoutMs: 2000,
        repo: {
          findByTokens: async (tokens, source) => {
            batches.push([...tokens]);
            if (batches.length === 1) await held;
            return real.findByTokens(tokens, source);
          },
          ownerLocale: real.ownerLocale,
        },
      });
      const turn = () => new Promise((resolve) => setImmediate(resolve));
      const asked = [service.handle({ path: accounts[0]!.token, userAgent: 'v2rayNG/1.8.0' })];
      await turn();
      // Each in a turn of its own while the first lookup is read: none starts a lookup of its own.
      for (const account of accounts.slice(1)) {
        asked.push(service.handle({ path: account.token, userAgent: 'v2rayNG/1.8.0' }));
        await turn();
      }
      expect(batches).toEqual([[accounts[0]!.token]]);
      release();
      const replies = await Promise.all(asked);
      expect(batches).toEqual([[accounts[0]!.token], accounts.slice(1).map((account) => account.token)]);
      expect(replies.map((reply) => reply.statusCode)).toEqual([200, 200, 200, 200]);
      replies.forEach((reply, i) => expect(fromB64(reply.body.toString())).toContain(accounts[i]!.username));
      await service.whenIdle();
    });

    it('times out a slow panel', async () => {
      const account = await makeAccount('marzneshin');
      const slow = createSubscriptionService({
        db: database.db,
        settings: { getAppSettings: async () => ({ brandName: 'B', supportEmail: 's@example.com' }) },
        publicUrl: new URL(PUBLIC_URL),
        fetchTimeoutMs: 50,
        log: { warn: vi.fn(), error: vi.fn() },
      });
      account.panel.faults.delayMs = 300;
      try {
        await expect(slow.handle({ path: account.token, userAgent: 'v2rayNG/1.8.0' })).rejects.toMatchObject({ statusCode: 503, code: 'service_unavailable' });
      } finally {
        account.panel.faults.delayMs = 0;
      }
    });
  });

  it('never revealed a panel address, path or credential in any answer', () => {
    expect(seen.length).toBeGreaterThan(30);
    const secrets = [
      marzneshin.url,
      marzban.url,
      marzneshin.url.replace('http://', ''),
      marzban.url.replace('http://', ''),
      marzneshin.admin.password,
      marzban.admin.password,
      't.me/support',
      'uvicorn',
    ];
    for (const res of seen) {
      const text = `${JSON.stringify(res.headers)}\n${res.body}`;
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});
