import type { Page } from '@playwright/test';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { LOCALES, localizedPath } from '../shared/locales.js';
import { PUBLIC_PAGES } from '../shared/site-pages.js';
import { ADMIN_TABS } from '../web/src/features/admin/admin-tabs.js';
import { readFileSync } from 'node:fs';
import { expect, signIn, test } from './site.js';

/**
 * Every page and dialog on a 390 px phone: nothing wider than the screen (tables turn into cards or
 * scroll inside their own box), and no button covered by another element — a toast, a sticky bar, a
 * neighbour that overflows — when it is scrolled into view.
 */
/** The admin screens' English texts (the tab names). */
const adminMessages = JSON.parse(readFileSync(new URL('../web/src/i18n/messages/en/admin.json', import.meta.url), 'utf8')) as Record<string, string>;

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
// Skipped on purpose outside the phone project: the 390 px viewport is set here, so the desktop project's run
// would repeat the same check (and its admin would sign in twice within the code's one-minute resend limit).
// eslint-disable-next-line no-empty-pattern
test.beforeEach(({}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the viewport is set here: one run (the phone project) covers it');
});

/** What is wrong with the layout now: the page wider than the screen, or buttons hidden under something else. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > width) problems.push(`the page is ${pageWidth} px wide on a ${width} px screen`);
    // With a dialog open only its buttons can be used; the page behind is covered on purpose.
    const dialogs = [...document.querySelectorAll<HTMLElement>('dialog[open], [role="dialog"], [role="alertdialog"]')];
    const scope: ParentNode = dialogs.at(-1) ?? document;
    const header = document.querySelector('header');
    for (const button of scope.querySelectorAll<HTMLElement>('button, [role="tab"], a[class*="rounded-lg"]')) {
      // Not drawn (hidden, in a closed <details>, transparent): nothing to reach.
      if (button.closest('header') || !button.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const label = (button.getAttribute('aria-label') ?? button.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      button.scrollIntoView({ block: 'center', inline: 'nearest' });
      const box = button.getBoundingClientRect();
      if (box.right > width + 1 || box.left < -1) {
        problems.push(`"${label}" is off the screen (${Math.round(box.left)}–${Math.round(box.right)} px)`);
        continue;
      }
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      const top = document.elementFromPoint(x, y);
      if (!top || button.contains(top) || top.contains(button)) continue;
      if (header?.contains(top)) continue; // a button scrolled under the sticky header is not hidden for good
      problems.push(`"${label}" is covered by <${top.tagName.toLowerCase()} class="${String(top.getAttribute('class') ?? '').slice(0, 60)}">`);
    }
    window.scrollTo(0, 0);
    return problems;
  });
}

async function expectFits(page: Page, what: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  expect(await layoutProblems(page), what).toEqual([]);
}

test('every public page, in every language, fits a 390 px screen with every button reachable', async ({ page }) => {
  test.setTimeout(360_000);
  for (const locale of LOCALES) {
    for (const { path } of PUBLIC_PAGES) {
      const url = localizedPath(locale, path);
      await page.goto(url);
      await expectFits(page, url);
    }
    await page.goto(localizedPath(locale, '/'));
    await page.getByRole('banner').getByRole('button').last().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectFits(page, `the mobile menu (${locale})`);
  }
});

test('the dashboard, its dialogs and a toast, then every admin tab and dialog, fit a 390 px screen', async ({ page, site }) => {
  test.setTimeout(120_000);
  const panel = await startFakeMarzneshin();
  try {
    await signIn(page, site, 'admin-mobile@example.com');
    const server = await page.request.post('/api/admin/servers', {
      data: {
        kind: 'marzneshin',
        name: `Mobile ${Date.now()}`,
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
      headers: { origin: site.baseURL },
    });
    expect(server.status()).toBe(201);
    const serverId = (await server.json()).id as string;
    for (let i = 0; i < 2; i += 1) {
      const account = await page.request.post('/api/admin/accounts', {
        data: { serverId, dataLimitGb: 10, expireDays: 30 },
        headers: { origin: site.baseURL },
      });
      expect(account.status()).toBe(201);
    }

    await page.goto('/dashboard');
    const accounts = page.getByRole('region', { name: 'Your Accounts' });
    await expect(accounts.getByRole('button', { name: /^Copy link/ })).toHaveCount(2);
    // The customer's accounts come before the plans on sale.
    const order = await page.evaluate(() => [...document.querySelectorAll('main h2')].map((h) => h.textContent));
    expect(order.indexOf('Your Accounts')).toBeLessThan(order.findIndex((text) => /plan/i.test(text ?? '')));
    await expectFits(page, '/dashboard');

    // A toast appears where it covers none of the row's buttons.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await accounts
      .getByRole('button', { name: /^Copy link/ })
      .last()
      .click();
    await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(/copied/i);
    await expectFits(page, '/dashboard with a toast');

    for (const [button, what] of [
      [/^QR code/, 'the QR dialog'],
      [/^Setup/, 'the setup dialog'],
    ] as const) {
      await accounts.getByRole('button', { name: button }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectFits(page, what);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
    await page.getByRole('button', { name: 'Transaction History' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectFits(page, 'the transaction history');
    await page.keyboard.press('Escape');

    await page.goto('/admin');
    for (const tab of ADMIN_TABS) {
      const label = adminMessages[tab.labelId]!;
      await page.getByRole('tab', { name: label }).click();
      await expect(page.getByRole('tabpanel')).toBeVisible();
      await expectFits(page, `the admin ${label} tab`);
    }
    for (const [tab, button] of [
      ['Master Servers', 'Add server'],
      ['Plans', 'Create plan'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('button', { name: button, exact: true }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await expectFits(page, `the ${button} dialog`);
      await page.keyboard.press('Escape');
    }

    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByLabel('Search by e-mail').fill('admin-mobile@example.com');
    await page.getByRole('link', { name: 'admin-mobile@example.com' }).click();
    await expect(page.getByRole('heading', { name: 'admin-mobile@example.com' })).toBeVisible();
    await expectFits(page, 'the admin user page');
    await page.goto('/create');
    await expectFits(page, '/create');
  } finally {
    await panel.close();
  }
});
