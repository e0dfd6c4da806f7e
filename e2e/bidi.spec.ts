import type { Browser, Locator, Page } from '@playwright/test';
import { runAdminCommand } from '../server/src/cli/admin.js';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, signIn, test, uniqueEmail, waitForHydration, type Site } from './site.js';

/**
 * Bidirectional text (issue 26): on a right-to-left page the operator's English words and the links
 * are isolated from the page's direction. Without it "3-Hour Trial" reads "Hour Trial-3", "24,000 GB
 * of data" shows its number after the words, and a subscription link is reordered around its digits
 * and slashes. What is checked is where the browser draws each part, not the markup.
 */

const GB = 1024 ** 3;

/** A fresh admin signed in in a context of its own (as devices.spec.ts does). */
async function signInNewAdmin(browser: Browser, site: Site): Promise<Page> {
  const email = uniqueEmail('admin-bidi');
  await runAdminCommand(site.services, ['grant', email]);
  const context = await browser.newContext({ baseURL: site.baseURL });
  const page = await context.newPage();
  await signIn(page, site, email);
  return page;
}

interface Drawn {
  left: number;
  top: number;
  bottom: number;
}

/**
 * Where the browser drew each of `parts` inside `element`'s text (the first occurrence of each, in the
 * order given), in CSS pixels: a Range over the characters, measured after layout.
 */
async function drawnAt(element: Locator, parts: readonly string[]): Promise<Drawn[]> {
  return element.evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes: Text[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node as Text);
    return wanted.map((part) => {
      for (const node of nodes) {
        const at = node.data.indexOf(part);
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + part.length);
        const { left, top, bottom } = range.getBoundingClientRect();
        return { left, top, bottom };
      }
      throw new Error(`"${part}" is not in ${root.textContent}`);
    });
  }, parts);
}

/**
 * Each part drawn after the one before it, read left to right: to its right on the same line, or on a
 * line below (a link may wrap on a phone).
 */
function expectLeftToRight(parts: Drawn[]): void {
  for (let index = 1; index < parts.length; index += 1) {
    const [before, after] = [parts[index - 1]!, parts[index]!];
    const sameLine = Math.abs(after.top - before.top) < (before.bottom - before.top) / 2;
    if (sameLine) expect(after.left, `part ${index} is right of part ${index - 1}`).toBeGreaterThan(before.left);
    else expect(after.top, `part ${index} is on a line below part ${index - 1}`).toBeGreaterThanOrEqual(before.bottom - 1);
  }
}

test('on /fa/ an e-mail address, an English plan name and feature line keep their order, and the subscription link reads left to right', async ({
  page,
  site,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const admin = await signInNewAdmin(browser, site);
  const headers = { origin: site.baseURL };
  const tag = `${Date.now()}`;
  let planId: string | undefined;
  try {
    const server = await admin.request.post('/api/admin/servers', {
      headers,
      data: {
        kind: 'marzneshin',
        name: `Bidi ${tag}`,
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
    });
    expect(server.status()).toBe(201);
    // Written in English only (no Persian translation): the Persian page shows it as written. Not on
    // the public price list (public: false), so the other specs' pricing pages stay as they were.
    const created = await admin.request.post('/api/admin/plans', {
      headers,
      data: { name: '3-Hour Trial', days: 0.125, dataLimitBytes: 24_000 * GB, price: 0, public: false, sortOrder: 0, features: ['24,000 GB of data'] },
    });
    expect(created.status()).toBe(201);
    planId = ((await created.json()) as { id: string }).id;

    // The Persian admin lists it in its own order too.
    await admin.goto('/fa/admin/plans');
    const adminName = admin.getByRole('cell', { name: '3-Hour Trial', exact: true });
    await expect(adminName).toBeVisible();
    expectLeftToRight(await drawnAt(adminName, ['3', 'Hour', 'Trial']));

    // An address that starts with digits: inside a right-to-left sentence it would read 'example.com@1234…'.
    const digits = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    await signIn(page, site, `${digits}@example.com`);
    await page.goto('/fa/dashboard');
    await waitForHydration(page);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const welcome = page.locator('p').filter({ hasText: '@example.com' }).first();
    expectLeftToRight(await drawnAt(welcome, [digits, '@', 'example.com']));
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: '3-Hour Trial' }) });
    await expect(card).toBeVisible();

    // "3-Hour Trial": the 3 is drawn left of "Hour", and "Hour" left of "Trial".
    expectLeftToRight(await drawnAt(card.getByRole('heading', { name: '3-Hour Trial' }), ['3', 'Hour', 'Trial']));
    // "24,000 GB of data": the number first (leftmost), then the words.
    const feature = card.getByRole('listitem').filter({ hasText: 'GB of data' });
    expectLeftToRight(await drawnAt(feature, ['24,000', 'GB', 'data']));

    // Take it: the setup dialog shows the subscription link, which reads left to right.
    await card.getByRole('button').click();
    const dialog = page.getByRole('dialog');
    const link = dialog.locator('code').first();
    await expect(link).toContainText('/sub/');
    await expect(link).toHaveAttribute('dir', 'ltr');
    // Whole, and cut by the browser on its one line: on a right-to-left line its parts would be drawn from the right.
    await expect(link).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/sub\/\S+$/);
    const host = new URL(site.baseURL);
    expectLeftToRight(await drawnAt(link, ['http', '127.0.0.1', host.port, '/sub/']));
    expect(consoleErrors).toEqual([]);
  } finally {
    if (planId) await admin.request.patch(`/api/admin/plans/${planId}`, { headers, data: { status: 'disabled' } });
    await admin.context().close();
    await panel.close();
  }
});
