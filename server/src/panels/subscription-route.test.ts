import { describe, expect, it } from 'vitest';
import { subscriptionUrlsToTry, subscriptionUrlOnPanel } from './subscription-route.js';
import { panelSubscriptionRequests } from './subscription-url.js';

describe('a subscription on the panel URL that was added', () => {
  it.each([
    ['remnawave', 'https://panel.internal:3000', 'https://sub.example.com/Ab3dEf9h', 'https://panel.internal:3000/api/sub/Ab3dEf9h'],
    ['remnawave', 'https://panel.internal/', 'https://example.com/s/Ab3dEf9h', 'https://panel.internal/api/sub/Ab3dEf9h'],
    ['pasarguard', 'https://10.0.0.5:8000', 'https://sub.example.com/sub/eyJ0b2tlbiI6MX0', 'https://10.0.0.5:8000/sub/eyJ0b2tlbiI6MX0'],
    ['marzban', 'http://10.0.0.5:8000/', 'https://cdn.example.com/prefix/sub/tok123', 'http://10.0.0.5:8000/sub/tok123'],
    ['marzneshin', 'https://10.0.0.5/panel', 'https://sub.example.com/sub/user_1/abc123', 'https://10.0.0.5/panel/sub/user_1/abc123'],
  ])('%s: %s + %s → %s', (kind, panelUrl, subscriptionUrl, expected) => {
    expect(subscriptionUrlOnPanel(kind, panelUrl, subscriptionUrl)).toBe(expected);
  });

  it('is not tried twice when the public address is the panel URL itself', () => {
    expect(subscriptionUrlsToTry('marzneshin', 'https://panel.example.com', 'https://panel.example.com/sub/user_1/abc')).toEqual([
      { url: 'https://panel.example.com/sub/user_1/abc', via: 'public' },
    ]);
    expect(subscriptionUrlsToTry('pasarguard', null, 'https://sub.example.com/sub/tok')).toEqual([{ url: 'https://sub.example.com/sub/tok', via: 'public' }]);
  });

  it('comes first, then the public address; each kind names the format its own way', () => {
    const requests = panelSubscriptionRequests('remnawave', 'https://panel.internal', 'https://sub.example.com/Ab3dEf9h', 'sing-box', 'SFA/1.11');
    expect(requests.map(({ url, via }) => [via, url])).toEqual([
      ['panel', 'https://panel.internal/api/sub/Ab3dEf9h/singbox'],
      ['public', 'https://sub.example.com/Ab3dEf9h/singbox'],
    ]);
    // Remnawave gets our User-Agent and the forwarded headers on both.
    for (const request of requests) expect(request.headers).toMatchObject({ 'user-agent': 'vpn-storefront/1.0', 'x-forwarded-proto': 'https' });
    expect(panelSubscriptionRequests('marzban', 'http://10.0.0.5:8000', 'https://cdn.example.com/sub/tok', 'clash-meta', 'clash-verge/v2')[0]).toEqual({
      via: 'panel',
      url: 'http://10.0.0.5:8000/sub/tok/clash-meta',
      headers: { accept: '*/*', 'user-agent': 'clash-verge/v2' },
    });
  });

  it('refuses a stored subscription URL that is not http(s)', () => {
    expect(() => subscriptionUrlsToTry('remnawave', 'https://panel.internal', 'ftp://x/y')).toThrow(/not http/);
  });
});
