/**
 * `/open/<app>?url=`: the https page that opens each app's deep link (Telegram refuses custom schemes), for our
 * own `/sub` links only. Through the whole app: the route, the brand from the settings, the page's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepLinkFor, VPN_CLIENT_APPS } from '../../../../shared/deep-links.js';
import { buildTestApp, TEST_ORIGIN, type TestApp } from '../../../test/test-app.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { ownSubscriptionLink } from './open-page.js';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWx_0-9';
const LINK = `${TEST_ORIGIN}/sub/${TOKEN}`;

describe('which links /open/ takes', () => {
  const origins = new Set([TEST_ORIGIN]);
  it('takes our /sub links, dropping a format suffix', () => {
    expect(ownSubscriptionLink(LINK, origins)).toBe(LINK);
    expect(ownSubscriptionLink(`${LINK}/clash-meta`, origins)).toBe(LINK);
    expect(ownSubscriptionLink(`${LINK}/`, origins)).toBe(LINK);
  });

  it.each([
    ['another site', `https://evil.example.com/sub/${TOKEN}`],
    ['another path of ours', `${TEST_ORIGIN}/dashboard`],
    ['a token too short', `${TEST_ORIGIN}/sub/abc`],
    ['an unknown suffix', `${LINK}/wireguard`],
    ['a script', 'javascript:alert(1)'],
    ['credentials in the URL', LINK.replace('://', '://user:pw@')],
    ['not a URL', 'sub/abc'],
    ['nothing', undefined],
  ])('refuses %s', (_what, url) => {
    expect(ownSubscriptionLink(url, origins)).toBeNull();
  });
});

describe('GET /open/:app', () => {
  const env = useTestEnvironment('sqlite');
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp });
  });
  afterAll(async () => {
    await t?.app.close();
  });
  const open = (path: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: path, headers });

  it.each(VPN_CLIENT_APPS.map((app) => [app.id, app]))('%s: a page that opens its deep link, with a button, the link and the other ways', async (_id, app) => {
    const res = await open(`/open/${app.id}?url=${encodeURIComponent(LINK)}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const href = deepLinkFor(app, LINK, 'Lumen VPN').href;
    const escaped = href.replaceAll('&', '&amp;');
    expect(res.body).toContain(`<meta http-equiv="refresh" content="0;url=${escaped}">`);
    expect(res.body).toContain(`<a class="btn primary" href="${escaped}">Open in ${app.name}</a>`);
    expect(res.body).toContain(`value="${LINK}"`);
    expect(res.body).toContain(`<a href="${LINK}">Other apps and a QR code</a>`);
  });

  it('speaks the reader’s language', async () => {
    const res = await open(`/open/happ?url=${encodeURIComponent(LINK)}`, { 'accept-language': 'ru-RU,ru;q=0.9' });
    expect(res.headers['content-language']).toBe('ru');
    expect(res.body).toContain('Открыть в Happ');
  });

  it('refuses a link that is not one of our /sub links (400) and an app it does not know (404), opening nothing', async () => {
    for (const url of [`https://evil.example.com/sub/${TOKEN}`, 'javascript:alert(1)', `${TEST_ORIGIN}/api/me`]) {
      const res = await open(`/open/happ?url=${encodeURIComponent(url)}`);
      expect(res.statusCode, url).toBe(400);
      expect(res.body).toContain('Only subscription links of Lumen VPN open here.');
      expect(res.body).not.toContain('http-equiv="refresh"');
      expect(res.body).not.toContain('evil.example.com');
    }
    expect((await open('/open/happ')).statusCode).toBe(400);
    expect((await open(`/open/happ?url=${encodeURIComponent(LINK)}&url=${encodeURIComponent(LINK)}`)).statusCode).toBe(400);
    const unknown = await open(`/open/telegram?url=${encodeURIComponent(LINK)}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This is not an app we know how to open.');
  });
});
