import { AxeBuilder } from '@axe-core/playwright';
import { PUBLIC_PAGES, withBrand } from '../shared/site-pages.js';
import { expect, test, waitForHydration } from './site.js';

const BRAND = 'Lumen VPN';

/** Internal links already checked in this worker, with the status they answered. */
const checkedLinks = new Map<string, number>();

/**
 * The pages checked on the phone as well: one of each kind (the phone's header, menu and footer are the same on all).
 * The phone project's mobile-layout.spec.ts walks every page in every language at 390 px; its links are the desktop's.
 */
const ON_THE_PHONE = new Set(['/', '/pricing', '/download/android', '/features/locations', '/why-trust-us/anonymous-accounts', '/help', '/privacy', '/login']);

test.describe('every public page', () => {
  for (const page of PUBLIC_PAGES) {
    test(`${page.path} shows its heading, logs no errors, links only to pages that exist, and passes axe`, async ({ page: tab, consoleErrors }, testInfo) => {
      test.skip(testInfo.project.name === 'phone' && !ON_THE_PHONE.has(page.path), 'one page of each kind on the phone; every page at 1280 px');
      const response = await tab.goto(page.path);
      expect(response?.status()).toBe(200);
      await expect(tab.getByRole('heading', { level: 1, name: withBrand(page.heading, BRAND), exact: true })).toBeVisible();
      await tab.waitForLoadState('networkidle');

      const hrefs = await tab.locator('a[href^="/"]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
      const internal = [...new Set(hrefs.map((href) => href.split('#')[0]!.split('?')[0]!))].filter((href) => href !== '');
      expect(internal.length).toBeGreaterThan(5);
      for (const href of internal) {
        if (!checkedLinks.has(href)) checkedLinks.set(href, (await tab.request.get(href)).status());
        expect(checkedLinks.get(href), `link to ${href} on ${page.path}`).toBe(200);
      }

      const axe = await new AxeBuilder({ page: tab }).analyze();
      const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  }
});

test.describe('the public site without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('pages are readable with their heading and text, and links work', async ({ page }) => {
    await page.goto('/pricing');
    await expect(page.getByRole('heading', { level: 1, name: 'Simple, Honest Pricing' })).toBeVisible();
    await expect(page.getByText('Most Popular').first()).toBeVisible();
    await page.goto('/features/locations');
    await expect(page.getByRole('heading', { level: 1, name: '50+ Global Locations' })).toBeVisible();
    await expect(page.getByText('Europe').first()).toBeVisible();
  });

  test('the download page trial box waits for the script: it never puts the address in the URL', async ({ page }) => {
    await page.goto('/download/linux');
    await page.getByLabel('Your e-mail address').fill('no.script@example.com');
    await expect(page.getByRole('button', { name: /^(Start Free Trial|Get Started)$/ })).toBeDisabled();
    await page.getByLabel('Your e-mail address').press('Enter');
    await expect(page).toHaveURL(/\/download\/linux$/);
  });

  test('a signed-out visitor finds the recommended apps for each platform, with their official links', async ({ page }) => {
    await page.goto('/download/windows');
    const apps = page.getByRole('region', { name: 'Free apps for Windows' });
    await expect(apps.getByRole('heading', { level: 3 })).toHaveText(['Hiddify', 'Clash Verge Rev', 'v2rayN', 'Karing']);
    await expect(apps.getByRole('link', { name: /Microsoft Store.*download Hiddify/ })).toHaveAttribute(
      'href',
      'https://apps.microsoft.com/detail/9pdfnl3qv2s5',
    );
    await page.goto('/download/android');
    const android = page.getByRole('region', { name: 'Free apps for Android' });
    await expect(android.getByRole('link', { name: /Google Play.*download v2rayNG/ })).toHaveAttribute(
      'href',
      'https://play.google.com/store/apps/details?id=com.v2ray.ang',
    );
    await page.goto('/download/ios');
    await expect(page.getByRole('region', { name: 'Free apps for iOS' }).getByRole('link', { name: /App Store.*download Hiddify/ })).toBeVisible();
  });
});

test('the page scrolls to the top on every route change', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test('a page keeps where the visitor scrolled while it hydrates', async ({ page }) => {
  await page.goto('/privacy');
  await waitForHydration(page);
  await page.evaluate(() => window.scrollTo(0, 900));
  await page.reload(); // the browser brings the visitor back to where they were, before the scripts have run
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
  await waitForHydration(page);
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
});

test('the download page trial box sends the code with its one click and opens /login at the code step, the trial to follow', async ({ page }) => {
  await page.goto('/download/windows');
  await waitForHydration(page);
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/auth\/(otp|verify)/.test(request.url())) apiCalls.push(new URL(request.url()).pathname);
  });
  await page.getByLabel(/e-?mail/i).fill('trial.visitor@example.com');
  await page.getByRole('button', { name: /^(Start Free Trial|Get Started)$/ }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%3Fplan%3Dtrial&step=code$/);
  await expect(page.getByLabel(/code/i)).toBeVisible();
  expect(apiCalls).toEqual(['/api/auth/otp']);
});

test('a prerendered page paints before it loads its modules, loads them all at once, and hydrates; a link loads its page once focused', async ({
  page,
  consoleErrors,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  for (const url of ['/', '/ru/pricing', '/fa/features/locations', '/zh/download/windows']) {
    scripts.length = 0;
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    const loader = page.locator('script[type="module"][data-entry]');
    const loaderSrc = new URL((await loader.getAttribute('src'))!, page.url()).pathname;
    const named = [(await loader.getAttribute('data-entry'))!, ...(await loader.getAttribute('data-modules'))!.split(' ')];
    // Nothing the page needed to hydrate was discovered late, one round trip after the entry.
    expect(
      scripts.filter((script) => script !== loaderSrc && !named.includes(script)),
      url,
    ).toEqual([]);
    expect(scripts.length, url).toBeGreaterThan(3);
    // Every module was asked for after the page's first contentful paint: the stylesheet had the connection to itself.
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      modules: performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js') && !entry.name.includes('/load-after-paint-'))
        .map((entry) => (entry as PerformanceResourceTiming).startTime),
    }));
    expect(timing.paint, url).toBeGreaterThan(0);
    expect(Math.min(...timing.modules), url).toBeGreaterThanOrEqual(timing.paint);
  }

  scripts.length = 0;
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.url());
  });
  await page.locator('footer a[href="/zh/privacy"]').focus();
  await expect.poll(() => scripts.some((script) => /\/PrivacyPage-[\w-]+\.js$/.test(script))).toBe(true);
  await page.locator('footer a[href="/zh/privacy"]').click();
  await expect(page).toHaveURL(/\/zh\/privacy$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The hydrated page's router drew the next page: the browser did not load it as a new document.
  expect(documents).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
