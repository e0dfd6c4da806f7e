import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOverview } from '../../../../shared/overview.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { asMarzneshinUser, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { startPanelShop, type PanelShop } from '../../../test/panel-shop.js';
import { signInWeb, type TestApp, type WebSession } from '../../../test/test-app.js';
import { utcDay } from './daily-stats.repo.js';

const DAY_MS = 24 * 3600_000;

/**
 * Traffic per server per day: the panel sync adds what each account used since it last counted, on
 * the server's UTC day, whoever else refreshed the usage meanwhile; a counter reset on the panel
 * (usage going down) counts what the panel shows since, never a negative amount.
 */
describe.each(TEST_DATABASES)('overview traffic from the panel sync (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let shop: PanelShop;
  let t: TestApp;
  let panel: FakeMarzneshin;
  let call: PanelShop['call'];
  let customer: WebSession;

  const claim = async () => {
    const res = await call('POST', '/api/accounts', customer, { planId: shop.freePlanId });
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json() as { id: string; username: string };
    return { ...account, panelUser: () => asMarzneshinUser(panel.users.get(account.username)) };
  };
  const sync = () => t.app.services.panelSync.syncAll();
  const trafficOf = async (): Promise<Pick<AdminOverview, 'dates' | 'traffic' | 'totals'>> => {
    const res = await call('GET', '/api/admin/overview?days=7');
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** The server's bytes on the last `n` days of the week. */
  const lastDays = async (n: number) => (await trafficOf()).traffic.find((s) => s.serverId === shop.serverId)!.bytes.slice(-n);

  beforeAll(async () => {
    shop = await startPanelShop(env);
    ({ t, panel, call } = shop);
    customer = await signInWeb(t, env.smtp, `traffic-${kind}@example.com`);
  });
  afterAll(async () => {
    await shop.close();
  });

  it('lists every server with zeros before any traffic', async () => {
    const week = await trafficOf();
    expect(week.traffic).toEqual([{ serverId: shop.serverId, name: 'Germany', bytes: [0, 0, 0, 0, 0, 0, 0] }]);
    expect(week.totals.trafficBytes).toBe(0);
  });

  it("adds each account's new usage to its server's day, once, even when the dashboard read the usage first", async () => {
    const a = await claim();
    const b = await claim();
    await sync(); // first sight: nothing used yet, nothing counted
    expect(await lastDays(1)).toEqual([0]);

    a.panelUser().used_traffic = 500_000;
    b.panelUser().used_traffic = 70_000;
    await sync();
    expect(await lastDays(1)).toEqual([570_000]);
    await sync(); // nothing new on the panel: nothing added
    expect(await lastDays(1)).toEqual([570_000]);

    // The customer's dashboard asks the panel itself and stores 800,000 before the sync comes by.
    a.panelUser().used_traffic = 800_000;
    t.clock.advance(61);
    const listed = (await call('GET', '/api/accounts', customer)).json().find((x: { id: string }) => x.id === a.id);
    expect(listed.usedTrafficBytes).toBe(800_000);
    await sync();
    expect(await lastDays(1)).toEqual([870_000]);
  });

  it('a counter reset on the panel counts what it shows since, never a negative amount', async () => {
    const a = await claim();
    a.panelUser().used_traffic = 1_000_000;
    await sync();
    const before = (await lastDays(1))[0]!;
    a.panelUser().used_traffic = 200_000; // reset on the panel, then 200,000 used
    await sync();
    expect(await lastDays(1)).toEqual([before + 200_000]);
    a.panelUser().used_traffic = 0; // reset, nothing used yet
    await sync();
    expect(await lastDays(1)).toEqual([before + 200_000]);
    const rows = await env.database.db('daily_stats').where({ metric: 'traffic_bytes' });
    expect(rows.every((row) => Number(row.value) >= 0)).toBe(true);
  });

  it('usage seen on the next UTC day goes to that day', async () => {
    const a = await claim();
    a.panelUser().used_traffic = 10_000;
    await sync();
    const today = (await lastDays(1))[0]!;
    const now = t.clock.now();
    t.clock.advance((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 0, 0, 30) - now.getTime()) / 1000);
    a.panelUser().used_traffic = 25_000;
    await sync();
    const week = await trafficOf();
    expect(week.dates.at(-1)).toBe(utcDay(t.clock.now()));
    expect(week.dates.at(-2)).toBe(utcDay(new Date(t.clock.now().getTime() - DAY_MS)));
    expect(await lastDays(2)).toEqual([today, 15_000]);
  });
});
