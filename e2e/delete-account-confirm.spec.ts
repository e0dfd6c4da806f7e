import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, signIn, signInAsNewAdmin, test, uniqueEmail } from './site.js';

const GB = 1024 ** 3;

/**
 * Issue 57: the Delete confirmation names the account and its plan in the reader's language, and says what
 * becomes of the time paid for: the days left are lost, not refunded nor put on the balance (delete-account.ts).
 */
test('the Delete confirmation names the account and its plan (off sale), and says the days left are lost (Russian and English)', async ({
  page,
  site,
  browser,
}) => {
  test.setTimeout(60_000);
  const panel = await startFakeMarzneshin();
  const adminContext = await browser.newContext({ baseURL: site.baseURL });
  const admin = await adminContext.newPage();
  const headers = { origin: site.baseURL };
  const tag = `${Date.now()}`;
  let planId: string | undefined;
  try {
    await signInAsNewAdmin(admin, site, 'delete-confirm-admin');
    planId = await addServerAndPlan(admin, site, panel, {
      name: `Family ${tag}`,
      price: 0,
      dataLimitBytes: 10 * GB,
      public: true,
      sortOrder: 97_000,
      translations: { ru: { name: `Семейный ${tag}` } },
    });

    await signIn(page, site, uniqueEmail('delete-confirm'));
    expect((await page.request.post('/api/accounts', { headers, data: { planId } })).status()).toBe(201);
    const [account] = (await (await page.request.get('/api/accounts')).json()) as [{ username: string }];
    // The free plan is taken off sale: the account still names it in Russian (no order kept its names).
    expect((await admin.request.patch(`/api/admin/plans/${planId}`, { headers, data: { status: 'disabled' } })).status()).toBe(200);

    await page.goto('/ru/dashboard');
    await expect(page.getByRole('row').filter({ hasText: account.username })).toContainText(`Семейный ${tag}`);
    await page.getByRole('button', { name: `Удалить ${account.username}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Аккаунт ${account.username} (Семейный ${tag}) будет удалён`);
    await expect(dialog).toContainText('Оставшиеся 30 дней пропадут: они не возвращаются и не зачисляются на ваш баланс.');
    await expect(dialog).not.toContainText(`Family ${tag}`);
    await dialog.getByRole('button', { name: 'Отмена' }).click();

    await page.goto('/dashboard');
    await page.getByRole('button', { name: `Delete ${account.username}` }).click();
    await expect(page.getByRole('dialog')).toContainText(`${account.username} (Family ${tag}) will be deleted`);
    await expect(page.getByRole('dialog')).toContainText('The 30 days left on it are lost: they are not refunded or added to your balance.');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByText('Account deleted successfully')).toBeVisible();
  } finally {
    if (planId) await admin.request.delete(`/api/admin/plans/${planId}`, { headers });
    await adminContext.close();
    await panel.close();
  }
});
