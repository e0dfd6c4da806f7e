import { expect, signIn, signInWithCode, test, uniqueEmail, waitForHydration } from './site.js';

test.describe('signing in with an e-mail code', () => {
  test('a new visitor signs in with the code from the e-mail (it submits itself, once), sees the greeting, and signs out', async ({
    page,
    site,
    consoleErrors,
  }) => {
    const verifications: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/verify')) verifications.push(request.postData() ?? '');
    });
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);

    const email = uniqueEmail('newcomer');
    await page.getByLabel(/email/i).fill(email);
    const sentBefore = site.smtp.messages.length;
    await page.getByRole('button', { name: 'Instant Access' }).click();
    await expect(page.getByText('Check your email for the sign-in code')).toBeVisible();

    const mail = await site.smtp.waitFor(email, { after: sentBefore });
    const code = /(\d{6}) is your/.exec(mail.subject)![1]!;
    // Typed digit by digit: the sixth sends it, with no click.
    await page.getByLabel(/code/i).pressSequentially(code);

    await expect(page).toHaveURL(/\/dashboard$/);
    expect(verifications).toHaveLength(1);
    await expect(page.getByText(`Welcome back, ${email}`)).toBeVisible();

    // The session lives in httpOnly cookies only.
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'vpn_access')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toMatch(/eyJ|vpn_/);

    // A reload keeps the session.
    await page.reload();
    await expect(page.getByText(`Welcome back, ${email}`)).toBeVisible();

    // Signing out from the account menu.
    const isPhone = (page.viewportSize()?.width ?? 1280) < 768;
    if (isPhone) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('dialog', { name: 'Main menu' }).getByRole('button', { name: 'Sign Out' }).click();
    } else {
      // Exactly the header's menu: the dashboard's 'Delete my account' has the words too.
      await page.getByRole('button', { name: 'My Account', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    }
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: 'Instant Access' })).toBeVisible();
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);

    expect(consoleErrors).toEqual([]);
  });

  test("a wrong code shows 'Invalid code' and costs one try even when Enter follows the auto-submit; 'Back to Email' returns to the first step", async ({
    page,
    site,
  }) => {
    const email = uniqueEmail('wrong');
    await page.goto('/login');
    await waitForHydration(page);
    await page.getByLabel(/email/i).fill(email);
    await page.getByRole('button', { name: 'Instant Access' }).click();
    await site.smtp.waitFor(email);
    const code = await site.smtp.latestCode(email);
    const field = page.getByLabel(/code/i);
    await field.fill(code === '000000' ? '111111' : '000000');
    await field.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid code' })).toContainText('4 tries left');
    // The field is empty and focused, to type the code again.
    await expect(field).toHaveValue('');
    await expect(field).toBeFocused();

    await page.getByRole('button', { name: 'Back to Email' }).click();
    await expect(page.getByRole('button', { name: 'Instant Access' })).toBeVisible();
  });

  for (const pasted of ['123 456', '123-456']) {
    test(`a code pasted as "${pasted}" is read as its six digits and sent`, async ({ page, site }) => {
      const email = uniqueEmail('paste');
      await page.goto('/login');
      await waitForHydration(page);
      await page.getByLabel(/email/i).fill(email);
      await page.getByRole('button', { name: 'Instant Access' }).click();
      await site.smtp.waitFor(email);
      const code = await site.smtp.latestCode(email);
      await page.getByLabel(/code/i).focus();
      await page.keyboard.insertText(`${code.slice(0, 3)}${pasted.slice(3, 4)}${code.slice(3)}`);
      await expect(page).toHaveURL(/\/dashboard$/);
    });
  }

  test("the code step is not among a page's first scripts: focusing the e-mail field loads it, before anything is sent", async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const codeStep = (script: string) => /\/OtpCodeStep-[\w-]+\.js$/.test(script);
    for (const url of ['/', '/ru/', '/fa/']) {
      await page.goto(url);
      await waitForHydration(page);
      await page.waitForLoadState('networkidle');
      const named = (await page.locator('script[data-entry]').getAttribute('data-modules'))!.split(' ');
      expect(named.filter(codeStep), url).toEqual([]);
      expect(scripts.filter(codeStep), url).toEqual([]);
    }
    await page.getByLabel(/ایمیل/).focus();
    await expect.poll(() => scripts.some(codeStep)).toBe(true);
  });

  test('a reload on the code step keeps it: the code already mailed still signs in, and the toast is gone after', async ({ page, site }) => {
    const email = uniqueEmail('reload');
    await page.goto('/login');
    await waitForHydration(page);
    await page.getByLabel(/email/i).fill(email);
    const sentBefore = site.smtp.messages.length;
    await page.getByRole('button', { name: 'Instant Access' }).click();
    await site.smtp.waitFor(email, { after: sentBefore });
    await expect(page).toHaveURL(/step=code/);

    await page.reload();
    await expect(page.getByLabel(/code/i)).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await page.getByLabel(/code/i).fill(await site.smtp.latestCode(email));
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Check your email for the sign-in code')).toHaveCount(0);
  });

  test('five wrong codes lock it: the hint says so, and "Send a new code" after the countdown signs in', async ({ page, site }) => {
    await page.clock.install();
    const email = uniqueEmail('locked');
    await page.goto('/login');
    await waitForHydration(page);
    await page.getByLabel(/email/i).fill(email);
    await page.getByRole('button', { name: 'Instant Access' }).click();
    await site.smtp.waitFor(email);
    const code = await site.smtp.latestCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      await page.getByLabel(/code/i).fill(wrong);
      await expect(page.getByRole('alert')).toContainText(i < 4 ? `${4 - i} tr` : 'Too many wrong tries');
    }
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Invalid code');
    await expect(page.getByRole('button', { name: 'Verify Code' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Send a new code' })).toBeDisabled();

    // A minute passes: for the server's cool-down (its own clock) and for the page's countdown.
    await site.database
      .db('otp_codes')
      .where({ email })
      .update({ created_at: new Date(Date.now() - 61_000) });
    await page.clock.runFor(61_000);
    const sentBefore = site.smtp.messages.length;
    await page.getByRole('button', { name: 'Send a new code' }).click();
    await site.smtp.waitFor(email, { after: sentBefore });
    await page.getByLabel(/code/i).fill(await site.smtp.latestCode(email));
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('signing in from /admin comes back to /admin', async ({ page, site }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login\?next=%2Fadmin$/);
    await signInWithCode(page, site, 'admin-return@example.com');
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Admin Panel' })).toBeVisible();
  });

  test('a signed-in visitor at /login goes to /dashboard, and a user at /admin goes to /dashboard', async ({ page, site }) => {
    const email = uniqueEmail('member');
    await signIn(page, site, email);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('an admin sees the admin links and the Admin Panel with its users', async ({ page, site }) => {
    await signIn(page, site, 'admin@example.com');
    await page.goto('/admin');
    await expect(page.getByRole('heading', { name: 'Admin Panel' })).toBeVisible();
    // Its stylesheet (the charts') came with its chunk, once, and applies (web/vite-plugin-css-preload.ts).
    const sheet = page.locator('link[rel="stylesheet"][href^="/assets/AdminPage-"]');
    await expect(sheet).toHaveCount(1);
    expect(await sheet.evaluate((link: HTMLLinkElement) => (link.sheet?.cssRules.length ?? 0) > 0)).toBe(true);
    await page.getByRole('tab', { name: 'Users' }).click();
    // The list opens on the newest users; other tests may have added more than a page since.
    await page.getByLabel('Search by e-mail').fill('admin@example.com');
    await expect(page.getByRole('cell', { name: 'admin@example.com' })).toBeVisible();
  });
});
