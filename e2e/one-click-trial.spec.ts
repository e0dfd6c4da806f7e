import type { Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { runAdminCommand } from '../server/src/cli/admin.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, test, uniqueEmail, waitForHydration, type Site } from './site.js';

/**
 * The landing page's free-trial box to a working subscription link: the visitor types the e-mail,
 * clicks once, types the code, and is on the dashboard with the trial claimed and its setup open.
 */

let panel: FakeMarzneshin;

/**
 * Signs a new admin in over the API as the desktop client does (bearer token), for the set-up calls: an
 * address of its own, so a code another spec just asked for (resend limit: one a minute) is no obstacle.
 */
async function adminToken(site: Site): Promise<string> {
  const email = uniqueEmail('admin-one-click');
  await runAdminCommand(site.services, ['grant', email]);
  const sentBefore = site.smtp.messages.length;
  expect((await send(site, 'POST', '/api/auth/otp', { email })).status).toBe(200);
  await site.smtp.waitFor(email, { after: sentBefore });
  const verified = await send(site, 'POST', '/api/auth/verify', { email, code: await site.smtp.latestCode(email), client: 'desktop' });
  expect(verified.status).toBe(200);
  return ((await verified.json()) as { accessToken: string }).accessToken;
}

function send(site: Site, method: 'POST' | 'PUT', path: string, body: object, token?: string): Promise<Response> {
  return fetch(site.baseURL + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/** Counts the visitor's own (trusted) clicks on every page the tab shows, across navigations. */
async function countClicks(page: Page): Promise<() => number> {
  let clicks = 0;
  await page.exposeFunction('__countClick', () => (clicks += 1));
  await page.addInitScript(() => {
    document.addEventListener(
      'click',
      (event) => {
        if (event.isTrusted) void (window as unknown as { __countClick: () => void }).__countClick();
      },
      true,
    );
  });
  return () => clicks;
}

/** On `/`: the e-mail into the trial box, one click, and the code from the e-mail, typed (it submits itself). */
async function startTrialFromLanding(page: Page, site: Site, email: string): Promise<void> {
  await page.goto('/');
  await waitForHydration(page);
  const box = page.locator('#get-started');
  await expect(box.getByRole('heading', { name: 'Start your free trial' })).toBeVisible();
  await box.getByLabel(/email/i).fill(email);
  const sentBefore = site.smtp.messages.length;
  await box.getByRole('button', { name: 'Instant Access' }).click();
  await site.smtp.waitFor(email, { after: sentBefore });
  await box.getByLabel(/code/i).pressSequentially(await site.smtp.latestCode(email));
}

test.describe('the free trial in one click', () => {
  test.beforeAll(async ({ site }) => {
    panel = await startFakeMarzneshin();
    const admin = await adminToken(site);
    const tag = Date.now();
    const server = await send(
      site,
      'POST',
      '/api/admin/servers',
      {
        kind: 'marzneshin',
        name: `One click ${tag}`,
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
      admin,
    );
    expect(server.status).toBe(201);
    const plan = await send(site, 'POST', '/api/admin/plans', { name: `Trial ${tag}`, days: 1, dataLimitBytes: 1024 ** 3, price: 0, isTrial: true }, admin);
    expect(plan.status).toBe(201);
    const trialPlanId = ((await plan.json()) as { id: string }).id;
    expect((await send(site, 'PUT', '/api/admin/settings', { trialPlanId }, admin)).status).toBe(200);
  });

  test.afterAll(async () => {
    await panel?.close();
  });

  test('from the landing page: e-mail, one click, the code, and the setup dialog shows a working /sub link', async ({ page, site, consoleErrors }) => {
    const clicks = await countClicks(page);
    const claims: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/accounts')) claims.push(request.url());
    });
    const email = uniqueEmail('one-click');
    await startTrialFromLanding(page, site, email);

    const dialog = page.getByRole('dialog', { name: /Your VPN Account is Ready/ });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    const link = await dialog.locator('code[title*="/sub/"]').getAttribute('title');
    expect(link).toMatch(new RegExp(`^${site.baseURL}/sub/[\\w-]{20,}$`));
    expect(clicks()).toBe(1);

    // The link works: a VPN client gets the configuration's links.
    const config = await fetch(`${link}/links`);
    expect(config.status).toBe(200);
    expect(await config.text()).toMatch(/^[a-z0-9]+:\/\/\S+/m);

    // Claimed once; a reload neither claims again nor reopens the dialog.
    expect(claims).toHaveLength(1);
    await page.reload();
    await expect(page.getByRole('button', { name: 'Trial Already Used' }).first()).toBeDisabled();
    await expect(dialog).toHaveCount(0);
    expect(claims).toHaveLength(1);
    const user = await site.database.db('user_profiles').where({ email }).first();
    expect(await site.database.db('vpn_accounts').where({ user_id: user.id })).toHaveLength(1);
    expect(consoleErrors).toEqual([]);
  });

  test("from a download page's trial box: the sign-in it leads to ends with the trial claimed and its setup open", async ({ page, site }) => {
    const email = uniqueEmail('download-trial');
    await page.goto('/download/linux');
    await waitForHydration(page);
    await page.getByLabel('Your e-mail address').fill(email);
    const sentBefore = site.smtp.messages.length;
    // One click sends the code and opens the sign-in at its code step.
    await page.getByRole('button', { name: 'Start Free Trial' }).click();
    await expect(page).toHaveURL(/\/login\?.*step=code/);
    await site.smtp.waitFor(email, { after: sentBefore });
    await waitForHydration(page);
    await expect(page.getByRole('button', { name: 'Instant Access' })).toHaveCount(0);
    await page.getByLabel(/code/i).fill(await site.smtp.latestCode(email));

    await expect(page.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a customer whose trial is used lands on the dashboard with the plans, told so, and nothing is claimed', async ({ page, site }) => {
    const email = uniqueEmail('trial-used');
    const now = new Date();
    await site.database.db('user_profiles').insert({ id: randomUUID(), email, role: 'user', trial_used: true, created_at: now, updated_at: now });
    const claims: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/accounts')) claims.push(request.url());
    });
    await startTrialFromLanding(page, site, email);

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('alert')).toContainText("You've already used your free trial. Choose a plan below to keep going.");
    await expect(page.getByRole('button', { name: 'Trial Already Used' }).first()).toBeDisabled();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(claims).toEqual([]);
  });
});
