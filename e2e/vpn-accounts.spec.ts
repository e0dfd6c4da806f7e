import type { Page } from '@playwright/test';
import { startFakeMarzban } from '../server/test/fake-panels/marzban.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { expect, signIn, test, uniqueEmail, type Site } from './site.js';

type PanelKind = 'marzneshin' | 'marzban';
const startPanel = (kind: PanelKind): Promise<FakeMarzneshin> => (kind === 'marzban' ? startFakeMarzban() : startFakeMarzneshin());

async function signOutQuietly(page: Page): Promise<void> {
  await page.context().clearCookies();
}

/** The admin adds the panel server through the UI (a wrong password first), creates a trial plan and sets it. */
async function setUpAsAdmin(page: Page, site: Site, panel: FakeMarzneshin, kind: PanelKind, tag: string): Promise<string> {
  await signIn(page, site, `admin-${kind}@example.com`);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Master Servers' }).click();
  await page.getByRole('button', { name: 'Add server' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Panel type').selectOption(kind);
  await dialog.getByLabel('Name', { exact: true }).fill(`Server ${tag}`);
  await dialog.getByLabel('URL').fill(panel.url);
  await dialog.getByLabel('Username').fill(panel.admin.username);
  await dialog.getByLabel('Password').fill('wrong-password');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByText('Connection test failed. Please check the credentials.')).toBeVisible();

  await dialog.getByLabel('Password').fill(panel.admin.password);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  // The field becomes a list of the panel's services once the test has answered.
  // Each kind names it in its own words (Marzban: its inbounds).
  const serviceList = dialog.getByRole('combobox', { name: kind === 'marzban' ? 'Inbound' : 'Service ID' });
  await expect(serviceList).toBeEnabled();
  await serviceList.selectOption({ index: 1 });
  await dialog.getByRole('button', { name: 'Add server' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('cell', { name: `Server ${tag}`, exact: true })).toBeVisible();

  await page.getByRole('tab', { name: 'Plans' }).click();
  await page.getByRole('button', { name: 'Create plan' }).click();
  const planDialog = page.getByRole('dialog');
  const planName = `Trial ${tag}`;
  await planDialog.getByLabel('Name', { exact: true }).fill(planName);
  await planDialog.getByLabel('Hours mode').check();
  await planDialog.getByLabel('Trial plan').check();
  await planDialog.getByRole('button', { name: 'Create plan' }).click();
  await expect(page.getByRole('cell', { name: planName, exact: true })).toBeVisible();

  await page.getByRole('tab', { name: 'Settings' }).click();
  const trialSelect = page.getByLabel('Trial plan');
  const optionValue = await trialSelect.locator('option', { hasText: planName }).getAttribute('value');
  await trialSelect.selectOption(optionValue);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings updated successfully')).toBeVisible();
  await signOutQuietly(page);
  return planName;
}

for (const kind of ['marzneshin', 'marzban'] as const) {
  test(`with a ${kind} panel: the admin sets up a server and trial; a customer claims it, gets the link and QR, and deletes it`, async ({
    page,
    site,
    context,
  }) => {
    test.setTimeout(45_000);
    const panel = await startPanel(kind);
    try {
      const tag = `${kind}-${Date.now()}`;
      await setUpAsAdmin(page, site, panel, kind, tag);
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);

      await signIn(page, site, uniqueEmail('customer'));
      await page.getByRole('button', { name: 'Claim Trial' }).first().click();
      const dialog = page.getByRole('dialog', { name: /Your VPN Account is Ready/ });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('img', { name: /QR/i })).toBeVisible();
      // It opens on the visitor's platform: Windows for the desktop project's browser, Android for the phone's.
      const isPhone = (page.viewportSize()?.width ?? 1280) < 768;
      await expect(dialog.getByRole('tab', { selected: true })).toHaveText(isPhone ? /Android/ : /Windows/);
      await dialog.getByRole('button', { name: /copy/i }).first().click();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toMatch(/\/sub\/[\w-]{20,}$/);
      expect([...panel.users.keys()]).toHaveLength(1);
      const [username] = [...panel.users.keys()];
      await page.keyboard.press('Escape');

      await expect(page.getByRole('rowheader', { name: new RegExp(`^${username}`) })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Your VPN accounts' })).toContainText(copied);
      // A 3-hour trial's expiry shows its time, not just today's date.
      await expect(page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${username}`) }) })).toContainText(
        /\d{4},? \d{1,2}:\d{2}/,
      );
      const usedTrials = page.getByRole('button', { name: 'Trial Already Used' });
      await expect(usedTrials.first()).toBeDisabled();
      for (const button of await usedTrials.all()) await expect(button).toBeDisabled();

      await page.getByRole('button', { name: `Delete ${username}` }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: /delete/i })
        .click();
      await expect(page.getByText('Account deleted successfully')).toBeVisible();
      await expect.poll(() => panel.users.size).toBe(0);
    } finally {
      await panel.close();
    }
  });
}
