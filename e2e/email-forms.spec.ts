import { expect, test, uniqueEmail, waitForHydration } from './site.js';

/**
 * Every e-mail form a customer uses: never sent before the page's script has run (the browser's own submit would put
 * the address in the URL, the history and the server's log, and send no code), never an address in any URL, and an
 * invalid address answered inline in the page's language (not the browser's English bubble).
 */
test.describe('e-mail forms before the page script has loaded', () => {
  test('Instant Access on the landing page sends nothing and puts no address in the URL, then works once ready', async ({ page, site }) => {
    test.setTimeout(60_000);
    const email = uniqueEmail('early');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Hold every module script: the page paints, its form is plain HTML.
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await held;
      await route.continue().catch(() => undefined); // the page may have gone meanwhile
    });
    await page.goto('/', { waitUntil: 'commit' });
    const field = page.getByLabel('Email address');
    await expect(field).toBeVisible();
    await field.fill(email);
    await field.press('Enter');
    await page.getByRole('button', { name: 'Instant Access' }).click({ force: true });
    await page.waitForTimeout(500);
    expect(page.url()).not.toContain('email');
    expect(page.url()).not.toContain(encodeURIComponent(email));
    expect(site.smtp.messages.some((message) => message.to.includes(email))).toBe(false);

    // The scripts let through: the page as it is once ready.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    release();
    await page.goto('/');
    await waitForHydration(page);
    await field.fill(email);
    const sentBefore = site.smtp.messages.length;
    await page.getByRole('button', { name: 'Instant Access' }).click();
    await site.smtp.waitFor(email, { after: sentBefore });
    await expect(page.getByLabel(/code/i)).toBeVisible();
    expect(page.url()).not.toContain('email');
    // A reload comes back to the code step, the address kept out of the URL.
    await page.reload();
    await expect(page.getByLabel(/code/i)).toBeVisible();
    expect(page.url()).not.toContain('email');
    const history = await page.evaluate(() => window.location.href);
    expect(history).not.toContain('%40');
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });
    for (const path of ['/', '/login', '/download/linux']) {
      test(`the e-mail form on ${path} is no GET form and cannot put the address in the URL`, async ({ page }) => {
        await page.goto(path);
        const form = page.locator('form', { has: page.locator('input[type="email"]') }).first();
        expect(((await form.getAttribute('method')) ?? 'get').toLowerCase()).toBe('post');
        await form.locator('input[type="email"]').fill('no.script@example.com');
        await form.locator('input[type="email"]').press('Enter');
        await page.waitForTimeout(300);
        expect(page.url()).not.toContain('no.script');
      });
    }
  });

  test('the download page trial box sends the code and opens /login at the code step, the address not in the URL', async ({ page, site }) => {
    const email = uniqueEmail('trial-box');
    await page.goto('/download/windows');
    await waitForHydration(page);
    const sentBefore = site.smtp.messages.length;
    await page.getByLabel(/e-?mail/i).fill(email);
    // 'Start Free Trial' while the store has a trial to promise, 'Get Started' otherwise.
    await page.getByRole('button', { name: /^(Start Free Trial|Get Started)$/ }).click();
    await site.smtp.waitFor(email, { after: sentBefore });
    await expect(page.getByLabel(/code/i)).toBeVisible();
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%3Fplan%3Dtrial&step=code$/);
  });
});

/** Each language's path prefix and the start of its message. */
const INVALID = {
  ru: 'Введите правильный адрес электронной почты',
  fa: 'یک نشانی ایمیل درست وارد کنید',
  zh: '请输入有效的电子邮件地址',
} as const;

test.describe('an invalid e-mail address is answered in the page language', () => {
  for (const [locale, message] of Object.entries(INVALID)) {
    for (const path of ['', '/login', '/download/linux']) {
      test(`${locale}${path || '/'}`, async ({ page }) => {
        await page.goto(`/${locale}${path}`);
        await waitForHydration(page);
        const field = page.locator('input[type="email"]').first();
        await field.fill('not-an-address');
        await field.press('Enter');
        await expect(page.getByText(message)).toBeVisible();
        await expect(field).toHaveAttribute('aria-invalid', 'true');
        // No browser bubble: the form does not ask the browser to validate.
        expect(await field.evaluate((input) => (input as HTMLInputElement).form?.noValidate)).toBe(true);
        expect(page.url()).not.toContain('not-an-address');
      });
    }
  }
});
