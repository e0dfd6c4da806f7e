import { randomUUID } from 'node:crypto';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, signIn, test, type Site } from './site.js';

const DAY_MS = 24 * 3600_000;
const GB = 1024 ** 3;
const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** 90 days of a small shop: signups, trials, payments, active-account snapshots and two servers' traffic. */
async function seedQuarter(site: Site, serverIds: string[]): Promise<void> {
  const { db } = site.database;
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) + 12 * 3600_000;
  const tag = `overview-${Date.now()}`;
  const users = Array.from({ length: 120 }, (_, i) => {
    const day = (i * 7) % 90;
    return {
      id: randomUUID(),
      email: `${tag}-${i}@example.com`,
      role: 'user',
      trial_used: false,
      created_at: new Date(today - day * DAY_MS),
      updated_at: new Date(today),
    };
  });
  await db.batchInsert('user_profiles', users, 60);
  const trials = users
    .filter((_, i) => i % 3 === 0)
    .map((user) => ({
      id: randomUUID(),
      user_id: user.id,
      username: `t_${user.id.slice(0, 12)}`,
      status: 'expired',
      sub_token: randomUUID(),
      metadata: '{}',
      trial_user_id: user.id,
      created_at: user.created_at,
      updated_at: user.created_at,
    }));
  const active = users.slice(0, 30).map((user) => ({
    id: randomUUID(),
    user_id: user.id,
    username: `a_${user.id.slice(0, 12)}`,
    status: 'active',
    sub_token: randomUUID(),
    metadata: '{}',
    created_at: user.created_at,
    updated_at: user.created_at,
  }));
  await db.batchInsert('vpn_accounts', [...trials, ...active], 60);
  const buyers = users.filter((_, i) => i % 4 === 0);
  const subscriptions = buyers.map((user) => ({
    id: randomUUID(),
    user_id: user.id,
    status: 'active',
    metadata: '{}',
    created_at: user.created_at,
    updated_at: user.created_at,
  }));
  await db.batchInsert('subscriptions', subscriptions, 60);
  await db.batchInsert(
    'transactions',
    subscriptions.map((sub, i) => ({
      id: randomUUID(),
      subscription_id: sub.id,
      user_id: sub.user_id,
      status: 'succeeded',
      amount: [499, 1299, 2999][i % 3],
      amount_refunded: 0,
      currency: 'usd',
      metadata: '{}',
      created_at: sub.created_at,
      updated_at: sub.created_at,
    })),
    60,
  );
  const now = new Date();
  const stats = Array.from({ length: 89 }, (_, i) => i + 1).flatMap((back) => [
    { metric: 'active_accounts', day: utcDay(today - back * DAY_MS), server_id: '', value: Math.max(0, 30 - Math.floor(back / 3)), updated_at: now },
    ...serverIds.map((serverId, s) => ({
      metric: 'traffic_bytes',
      day: utcDay(today - back * DAY_MS),
      server_id: serverId,
      value: Math.round((s + 1) * GB * (3 + Math.sin(back / 4) * 2)),
      updated_at: now,
    })),
  ]);
  for (let i = 0; i < stats.length; i += 60)
    await db('daily_stats')
      .insert(stats.slice(i, i + 60))
      .onConflict(['metric', 'day', 'server_id'])
      .ignore();
}

test('the admin panel opens on the overview: headline numbers and daily charts for 7, 30 and 90 days, at 1280 and 390 px', async ({
  page,
  site,
  consoleErrors,
}, testInfo) => {
  const panel = await startFakeMarzneshin();
  try {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page, site, 'admin-overview@example.com');
    const serverIds: string[] = [];
    for (const name of ['Frankfurt', 'Amsterdam']) {
      const res = await page.request.post('/api/admin/servers', {
        data: { kind: 'marzneshin', name, url: panel.url, username: panel.admin.username, password: panel.admin.password, serviceId: '1', locations: 'all' },
        headers: { origin: site.baseURL },
      });
      expect(res.status(), await res.text()).toBe(201);
      serverIds.push((await res.json()).id);
    }
    await seedQuarter(site, serverIds);

    await page.goto('/admin');
    await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
    const figures = page.getByRole('figure');
    await expect(figures).toHaveCount(5);
    for (const name of ['Signups per day', 'Active accounts', 'Trials claimed per day', 'Revenue per day', 'Traffic per server per day']) {
      await expect(page.getByRole('figure', { name: new RegExp(`^${name}`) }).locator('canvas')).toHaveCount(1);
    }
    for (const label of ['Total users', 'Active accounts', 'Revenue', 'Signups']) await expect(page.locator('dt', { hasText: label }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
    // The numbers are in a table for screen readers too: one row per day.
    const signupRows = page.getByRole('table', { name: 'Signups per day' }).locator('tbody tr');
    await expect(signupRows).toHaveCount(7);
    await expect(page.getByRole('cell', { name: 'Frankfurt' })).toBeVisible();

    await page.getByRole('button', { name: '30 days' }).click();
    await expect(page.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    await expect(signupRows).toHaveCount(30);
    await page.getByRole('button', { name: '90 days' }).click();
    await expect(signupRows).toHaveCount(90);
    await expect(page.getByText('Last 90 days, less refunds', { exact: true })).toBeVisible();
    await expect(figures.locator('canvas')).toHaveCount(5);
    await page.screenshot({ path: testInfo.outputPath('overview-1280.png'), fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    // Each chart follows its box's new width (ResizeObserver); the page never scrolls sideways.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const widths = await figures.locator('canvas').evaluateAll((canvases) => canvases.map((canvas) => canvas.getBoundingClientRect().right));
    for (const right of widths) expect(right).toBeLessThanOrEqual(390);
    await page.screenshot({ path: testInfo.outputPath('overview-390.png'), fullPage: true });
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});
