import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { LOCALES, localizedPath } from '../shared/locales.js';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { englishLeftIn, englishVocabulary } from '../server/test/untranslated.js';
import { expect, FAKE_STRIPE_KEYS, signIn, test, uniqueEmail, waitForHydration } from './site.js';

const SCREENSHOTS = 'test-results/languages';
const vocabulary = englishVocabulary();

/** What the reader sees and hears on the screen now (text, labels), for the English-left-behind check. */
async function screenText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const labels = [...document.querySelectorAll('[aria-label],[placeholder],[title],img[alt]')]
      .filter((element) => (element as HTMLElement).checkVisibility?.() ?? true)
      .map((element) => ['aria-label', 'placeholder', 'title', 'alt'].map((name) => element.getAttribute(name) ?? '').join(' '));
    return `${document.body.innerText}\n${labels.join('\n')}`;
  });
}

/** Words of the operator's own data (the plans' names, tiers and features): not ours to translate. */
async function operatorWords(page: Page): Promise<Set<string>> {
  const plans = (await (await page.request.get('/api/plans')).json()) as Array<Record<string, unknown>>;
  return new Set(
    JSON.stringify(plans.map((plan) => [plan.name, plan.tier, plan.features]))
      .toLowerCase()
      .match(/[a-z][a-z'’-]*[a-z]/g) ?? [],
  );
}

async function expectNoEnglish(page: Page, what: string): Promise<void> {
  const text = (await screenText(page)).replace(/\S+@\S+/g, ' ');
  expect(englishLeftIn(text, vocabulary, await operatorWords(page)), `English words in ${what}`).toEqual([]);
}

async function snap(page: Page, name: string, projectName: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}-${projectName}.png`, fullPage: false });
}

test('switching to Persian on /pricing keeps the page and mirrors the layout; the choice is remembered', async ({ page }) => {
  await page.goto('/pricing');
  await waitForHydration(page); // the switcher reacts once the page has hydrated
  const switcher = page.getByRole('contentinfo').getByRole('combobox', { name: 'Language' });
  await switcher.selectOption('fa');
  await expect(page).toHaveURL(/\/fa\/pricing$/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'fa');
  // Mirrored: the brand sits at the right edge of the header, the page starts from the right.
  const width = page.viewportSize()!.width;
  const brand = await page.getByRole('banner').getByRole('link').first().boundingBox();
  expect(brand!.x).toBeGreaterThan(width / 2);
  const heading = await page.getByRole('heading', { level: 1 }).boundingBox();
  expect(heading!.x + heading!.width).toBeGreaterThan(width / 2);
  // Remembered: the English home page takes this visitor to the Persian one.
  await page.goto('/');
  await expect(page).toHaveURL(/\/fa\/$/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
});

test.describe('a Russian browser', () => {
  test.use({ locale: 'ru-RU' });

  test('is offered Russian on its first visit to /, and not again once it says no', async ({ page }) => {
    await page.goto('/');
    const offer = page.getByRole('region', { name: 'Язык' });
    await expect(offer).toContainText('Этот сайт доступен и на русском языке.');
    await expect(page).toHaveURL(/\/$/); // offered, not moved
    await offer.getByRole('button', { name: 'Остаться на английском' }).click();
    await expect(offer).toHaveCount(0);
    await page.reload();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('region', { name: 'Язык' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/$/);
  });

  test('follows the offer to /ru/', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Перейти на русский' }).click();
    await expect(page).toHaveURL(/\/ru\/$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText("We're what we believe!");
  });
});

test('a Russian customer signs in in Russian, gets the code e-mail in Russian, and sees the dashboard, setup and payment dialogs in Russian', async ({
  page,
  site,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  const admin = await browser.newContext({ baseURL: site.baseURL });
  try {
    // The shop: a panel server, a paid plan and card payments (over the admin API).
    const adminPage = await admin.newPage();
    await signIn(adminPage, site, 'admin-languages@example.com');
    const post = (url: string, data: object, method: 'post' | 'put' = 'post') => adminPage.request[method](url, { data, headers: { origin: site.baseURL } });
    const server = await post('/api/admin/servers', {
      kind: 'marzneshin',
      name: `Languages ${Date.now()}`,
      url: panel.url,
      username: panel.admin.username,
      password: panel.admin.password,
      serviceId: '1',
      locations: 'all',
    });
    expect(server.status()).toBe(201);
    const card = await post('/api/admin/payments/card', { enabled: true, ...FAKE_STRIPE_KEYS }, 'put');
    expect(card.status()).toBe(200);

    // Sign-in, in Russian.
    const email = uniqueEmail('russian');
    await page.goto('/ru/login');
    await waitForHydration(page);
    await expectNoEnglish(page, 'the Russian sign-in page');
    await page.getByRole('textbox').first().fill(email);
    const sentBefore = site.smtp.messages.length;
    await page.locator('form button[type="submit"]').click();
    const mail = await site.smtp.waitFor(email, { after: sentBefore });
    expect(mail.subject).toMatch(/[А-Яа-я]/);
    expect(mail.subject).not.toMatch(/code/i);
    await page.locator('input[autocomplete="one-time-code"]').fill(await site.smtp.latestCode(email)); // it submits itself
    await expect(page).toHaveURL(/\/ru\/dashboard$/);

    // An account for this customer, made by the admin.
    const found = await adminPage.request.get(`/api/admin/users?q=${encodeURIComponent(email)}`);
    const userId = ((await found.json()) as Array<{ id: string }>)[0]!.id;
    expect((await post('/api/admin/accounts', { serverId: (await server.json()).id, dataLimitGb: 10, expireDays: 30, userId })).status()).toBe(201);

    await page.reload();
    await expect(page.locator('main')).toContainText('ГБ');
    await expectNoEnglish(page, 'the Russian dashboard');
    await snap(page, 'dashboard-ru', testInfo.project.name);

    // The setup dialog (the first button of the account's actions).
    const setupButton = () => page.locator('main tbody tr').first().locator('td').last().getByRole('button').first();
    await setupButton().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoEnglish(page, 'the Russian setup dialog');
    await snap(page, 'setup-ru', testInfo.project.name);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // The payment dialog of a plan on sale.
    await page
      .getByRole('main')
      .getByRole('button', { name: /Купить|Оформить|Выбрать/ })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoEnglish(page, 'the Russian payment dialog');
    await snap(page, 'payment-ru', testInfo.project.name);
    await page.keyboard.press('Escape');

    // The same screens in the other languages: in that language, and nothing wider than the screen.
    for (const locale of LOCALES.filter((other) => other !== 'ru')) {
      await page.goto(localizedPath(locale, '/dashboard'));
      await expect(page.locator('main tbody tr').first()).toBeVisible();
      if (locale !== 'en') await expectNoEnglish(page, `the ${locale} dashboard`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
      await snap(page, `dashboard-${locale}`, testInfo.project.name);
      await setupButton().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      if (locale !== 'en') await expectNoEnglish(page, `the ${locale} setup dialog`);
      await snap(page, `setup-${locale}`, testInfo.project.name);
      await page.keyboard.press('Escape');
    }
  } finally {
    await (
      await admin.newPage()
    ).request
      .put('/api/admin/payments/card', { data: { enabled: false }, headers: { origin: site.baseURL } })
      .catch(() => undefined);
    await admin.close();
    await panel.close();
  }
});

for (const locale of LOCALES) {
  test(`landing and pricing in ${locale}: screenshots, and nothing wider than the screen`, async ({ page }, testInfo) => {
    for (const path of ['/', '/pricing']) {
      const url = localizedPath(locale, path);
      await page.goto(url);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
      await snap(page, `${path === '/' ? 'landing' : 'pricing'}-${locale}`, testInfo.project.name);
    }
  });
}
