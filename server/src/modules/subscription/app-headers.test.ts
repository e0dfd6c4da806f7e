/**
 * The headers VPN apps act on, as the operator sets them in `PUT /api/admin/settings` `subscriptionHeaders`:
 * saved and read back, refused when malformed, and sent by `/sub` (the announcement in the account owner's
 * language; Happ's provider headers only with a provider id; no `expire` for an account without an end).
 */
import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_HEADER_DEFAULTS } from '../../../../shared/subscription-headers.js';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { bearer } from '../../../test/test-app.js';

const HAPP = { 'user-agent': 'Happ/3.2.1', 'x-hwid': 'happ-device-0001' };
const fromBase64Header = (value: unknown) => Buffer.from(String(value).replace(/^base64:/, ''), 'base64').toString('utf8');

describe.each(['sqlite', 'postgres'] as const)('subscription headers on %s', (kind) => {
  const f = useBillingFixture(kind);

  async function boughtPath(): Promise<{ path: string; accountId: string; userId: string }> {
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    const account = (await f.call(user, 'GET', '/api/accounts')).json().find((row: { id: string }) => row.id === accountId);
    return { path: new URL(account.subscriptionUrl).pathname, accountId, userId: user.userId };
  }
  const sub = (path: string, headers: Record<string, string> = HAPP) => f.t.app.inject({ method: 'GET', url: path, headers });

  it('are the defaults until set, and a save changes only the fields it sends', async () => {
    expect((await f.call(f.admin, 'GET', '/api/admin/settings')).json().subscriptionHeaders).toEqual(SUBSCRIPTION_HEADER_DEFAULTS);
    const saved = await f.call(f.admin, 'PUT', '/api/admin/settings', {
      subscriptionHeaders: { announce: { en: 'Maintenance on Sunday', ru: 'Работы в воскресенье', fa: '' }, updateIntervalHours: 6 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().subscriptionHeaders).toEqual({
      ...SUBSCRIPTION_HEADER_DEFAULTS,
      announce: { en: 'Maintenance on Sunday', ru: 'Работы в воскресенье' },
      updateIntervalHours: 6,
    });
    const more = await f.call(f.admin, 'PUT', '/api/admin/settings', { subscriptionHeaders: { happProviderId: 'Ab12Cd34', hideSettings: true } });
    expect(more.json().subscriptionHeaders).toMatchObject({
      announce: { ru: 'Работы в воскресенье' },
      updateIntervalHours: 6,
      happProviderId: 'Ab12Cd34',
      hideSettings: true,
    });
  });

  it('refuses malformed values with the field named, and saves nothing', async () => {
    const before = (await f.call(f.admin, 'GET', '/api/admin/settings')).json().subscriptionHeaders;
    for (const [body, field] of [
      [{ announce: { en: 'two\nlines' } }, 'subscriptionHeaders.announce.en'],
      [{ announce: { de: 'Hallo' } }, 'subscriptionHeaders.announce'],
      [{ happProviderId: 'short' }, 'subscriptionHeaders.happProviderId'],
      [{ updateIntervalHours: 0 }, 'subscriptionHeaders.updateIntervalHours'],
      [{ routing: 'not a link' }, 'subscriptionHeaders.routing'],
      [{ unknown: 1 }, 'subscriptionHeaders'],
    ] as const) {
      const res = await f.call(f.admin, 'PUT', '/api/admin/settings', { subscriptionHeaders: body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
      expect(Object.keys(res.json().fields ?? {}).join(',')).toContain(field);
    }
    expect((await f.call(f.admin, 'GET', '/api/admin/settings')).json().subscriptionHeaders).toEqual(before);
  });

  it('are the admin’s: 401 without a session, 403 for a customer', async () => {
    const body = { subscriptionHeaders: { updateIntervalHours: 2 } };
    expect((await f.t.app.inject({ method: 'PUT', url: '/api/admin/settings', payload: body })).statusCode).toBe(401);
    const user = await f.newUser();
    expect((await f.t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: bearer(user.accessToken), payload: body })).statusCode).toBe(403);
  });

  it('are sent by /sub: the announcement in the owner’s language, routing, and Happ’s provider headers', async () => {
    const routing = `happ://routing/onadd/${Buffer.from('{"Name":"RU direct"}').toString('base64')}`;
    expect(
      (
        await f.call(f.admin, 'PUT', '/api/admin/settings', {
          subscriptionHeaders: {
            announce: { en: 'Maintenance on Sunday', ru: 'Работы в воскресенье' },
            routing,
            happProviderId: 'Ab12Cd34',
            hideSettings: true,
            updateIntervalHours: 6,
          },
        })
      ).statusCode,
    ).toBe(200);
    const english = await boughtPath();
    const answer = await sub(english.path);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers).toMatchObject({
      'profile-update-interval': '6',
      routing,
      providerid: 'Ab12Cd34',
      'hide-settings': '1',
      'subscription-always-hwid-enable': '1',
      'sub-expire': '1',
      'notification-subs-expire': '1',
      'sub-expire-button-link': expect.stringMatching(/\/dashboard$/),
    });
    expect(fromBase64Header(answer.headers.announce)).toBe('Maintenance on Sunday');

    const russian = await boughtPath();
    await f.env.database.db('user_profiles').where({ id: russian.userId }).update({ locale: 'ru' });
    expect(fromBase64Header((await sub(russian.path)).headers.announce)).toBe('Работы в воскресенье');

    // Without a provider id none of Happ's provider headers; without an announcement none.
    expect(
      (await f.call(f.admin, 'PUT', '/api/admin/settings', { subscriptionHeaders: { happProviderId: null, announce: {}, routing: null } })).statusCode,
    ).toBe(200);
    const plain = await sub(english.path);
    for (const header of ['providerid', 'hide-settings', 'sub-expire', 'notification-subs-expire', 'announce', 'routing'])
      expect(plain.headers[header], header).toBeUndefined();
    expect(plain.headers['profile-update-interval']).toBe('6');
  });

  it('leaves expire out of subscription-userinfo for an account without an end', async () => {
    const { path, accountId } = await boughtPath();
    expect(String((await sub(path)).headers['subscription-userinfo'])).toMatch(/^upload=\d+; download=\d+; total=\d+; expire=\d+$/);
    await f.env.database.db('vpn_accounts').where({ id: accountId }).update({ expire_date: null });
    await f.t.app.services.subscription.invalidateAccount(accountId);
    const userinfo = String((await sub(path)).headers['subscription-userinfo']);
    expect(userinfo).toMatch(/^upload=\d+; download=\d+; total=\d+$/);
  });
});
