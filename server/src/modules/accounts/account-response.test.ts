import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { isoTime } from '../../lib/iso-time.js';
import { VpnAccountListResponse } from './account-response.js';

const serialize = fastJson(VpnAccountListResponse as Parameters<typeof fastJson>[0]);

const account = (over: Partial<VpnAccount> = {}): VpnAccount => ({
  id: '00000000-0000-4000-a000-000000000001',
  username: 'u_1',
  status: 'active',
  expireDate: isoTime(new Date(Date.UTC(2026, 11, 27))),
  dataLimitBytes: null,
  usedTrafficBytes: 0,
  createdAt: isoTime(new Date(0)),
  combinedUrl: null,
  subscriptionUrl: null,
  links: [],
  server: null,
  planName: null,
  planId: null,
  renewable: false,
  usageStale: false,
  paymentConfirmed: false,
  usageCheckedAt: null,
  deviceLimit: null,
  autoRenewFromWallet: false,
  scheduledPlanChange: null,
  ...over,
});

describe('the account list as serialised', () => {
  it('escapes what comes from panels and operators: quotes, backslashes, control characters, emoji', () => {
    const tricky = 'a"b\\c\nd\u0001e 🇩🇪 ' + 'x'.repeat(60) + '"';
    const list = [
      account({
        username: tricky,
        links: [`vless://id@h:443#${tricky}`],
        planName: tricky,
        server: { name: tricky, locationNumber: null, nameTranslations: {}, locations: tricky },
      }),
    ];
    expect(JSON.parse(serialize(list))).toEqual(list);
  });

  it("writes the server's own strings as they are, and they need no escaping: ISO times and /sub links", () => {
    for (const base of ['https://vpn.example.com', 'https://vpn.example.com/shop/?q="x"\\y#"f"', 'http://us"er:p"ss@127.0.0.1:8080/a b/"q\\x/']) {
      const link = new URL('/sub/', base).href + 'b432b7bc79f1fb191b41e28db54fdedb';
      expect(link).not.toMatch(/["\\\u0000-\u001f]/);
      const list = [
        account({ combinedUrl: link, subscriptionUrl: link, usageCheckedAt: isoTime(new Date(253_402_300_799_999)), createdAt: isoTime(new Date(1)) }),
      ];
      expect(JSON.parse(serialize(list))).toEqual(list);
    }
  });

  it('leaves out what VpnAccount does not list', () => {
    const list = [{ ...account(), panelPassword: 'secret' }];
    expect(JSON.parse(serialize(list))).toEqual([account()]);
  });
});
