/**
 * "Count apps without an id" (`devicelessClients: "count"`): v2rayN, v2rayNG, Hiddify, Clash Verge Rev and FlClash
 * send no `x-hwid`, so on a limited plan each is a device known by its app and address, holding its slot while
 * seen within the operator's window; over the limit it gets the same placeholder; removing it frees the slot.
 */
import { describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';

const V2RAYNG = 'v2rayNG/1.9.5';
const HOUR = 3_600_000;

describe.each(TEST_DATABASES)('apps without a device id, counted (%s)', (kind) => {
  const f = useBillingFixture(kind);

  async function limitedAccount(limit: number) {
    expect((await f.call(f.admin, 'PUT', '/api/admin/settings', { devicelessClients: 'count', devicelessWindowHours: 24 })).statusCode).toBe(200);
    expect((await f.call(f.admin, 'PATCH', `/api/admin/plans/${f.paidPlanId}`, { deviceLimit: limit })).statusCode).toBe(200);
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    const account = (await f.call(user, 'GET', '/api/accounts')).json().find((row: { id: string }) => row.id === accountId);
    const path = new URL(account.subscriptionUrl).pathname;
    const fetchFrom = (address: string, userAgent = V2RAYNG) =>
      f.t.app.inject({ method: 'GET', url: path, headers: { 'user-agent': userAgent }, remoteAddress: address });
    const served = async (address: string, userAgent = V2RAYNG) => {
      const res = await fetchFrom(address, userAgent);
      expect(res.statusCode, res.body).toBe(200);
      return res.headers['x-hwid-max-devices-reached'] === undefined;
    };
    const devices = async () => (await f.call(user, 'GET', `/api/accounts/${accountId}/devices`)).json();
    return { user, accountId, fetchFrom, served, devices };
  }

  it('a third v2rayNG from another address gets the placeholder on a plan of 2; removing a device frees its slot', async () => {
    const { user, accountId, fetchFrom, served, devices } = await limitedAccount(2);
    expect(await served('10.0.0.1')).toBe(true);
    expect(await served('10.0.0.2')).toBe(true);
    const third = await fetchFrom('10.0.0.3');
    expect(third.headers).toMatchObject({ 'x-hwid-max-devices-reached': 'true', 'x-hwid-limit': 'true' });
    expect(decodeURIComponent(Buffer.from(third.body, 'base64').toString('utf8'))).toContain('Device limit reached (2 of 2)');
    // The same app from the same address again is the same device; another app there is another.
    expect(await served('10.0.0.1')).toBe(true);
    expect(await served('10.0.0.1', 'Hiddify/2.5.7')).toBe(false);

    const listed = await devices();
    expect(listed.limit).toBe(2);
    expect(listed.devices).toHaveLength(2);
    expect(
      listed.devices.every(
        (device: { anonymous: boolean; app: string; model: string | null }) => device.anonymous && device.app === V2RAYNG && device.model === null,
      ),
    ).toBe(true);
    // Nothing of the address is kept or shown.
    const rows = await f.env.database.db('account_devices').where({ vpn_account_id: accountId });
    expect(JSON.stringify(rows)).not.toContain('10.0.0.');
    expect(JSON.stringify(listed)).not.toContain('10.0.0.');

    const removed = await f.call(user, 'DELETE', `/api/accounts/${accountId}/devices/${listed.devices[0].id}`);
    expect(removed.statusCode).toBe(204);
    expect(await served('10.0.0.3')).toBe(true);
  });

  it('a device not seen within the window stops holding its slot, and is no longer listed', async () => {
    const { served, devices } = await limitedAccount(2);
    expect(await served('10.1.0.1')).toBe(true);
    expect(await served('10.1.0.2')).toBe(true);
    f.t.clock.advance((25 * HOUR) / 1000);
    expect((await devices()).devices).toHaveLength(0);
    expect(await served('10.1.0.3')).toBe(true);
    expect(await served('10.1.0.4')).toBe(true);
    expect(await served('10.1.0.5')).toBe(false);
    // Back after the window: a new device again, and there is no room.
    expect(await served('10.1.0.1')).toBe(false);
    expect((await devices()).devices.length).toBe(2);
  });

  it('ten apps from ten addresses at once on a plan of 3: exactly 3 get the servers', async () => {
    const { fetchFrom, devices } = await limitedAccount(3);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => fetchFrom(`10.2.0.${i + 1}`)));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(answers.filter((answer) => answer.headers['x-hwid-max-devices-reached'] === undefined)).toHaveLength(3);
    expect((await devices()).devices).toHaveLength(3);
  });

  it('refuses a window outside 1–720 hours and an unknown policy, with the field named', async () => {
    for (const [body, field] of [
      [{ devicelessWindowHours: 0 }, 'devicelessWindowHours'],
      [{ devicelessWindowHours: 721 }, 'devicelessWindowHours'],
      [{ devicelessClients: 'guess' }, 'devicelessClients'],
    ] as const) {
      const res = await f.call(f.admin, 'PUT', '/api/admin/settings', body);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toContain(field);
    }
  });
});
