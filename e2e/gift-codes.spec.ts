import { readFileSync } from 'node:fs';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, signIn, signInAsNewAdmin, test, uniqueEmail } from './site.js';

test('the admin issues gift codes and downloads them; a customer redeems one for an account, and a second time is refused', async ({
  page,
  site,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  try {
    await signInAsNewAdmin(page, site, 'admin-gift');
    const planName = `Gift plan ${Date.now()}`;
    await addServerAndPlan(page, site, panel, { name: planName, price: 1000 });

    await page.goto('/admin/promotions');
    const gifts = page.getByRole('region', { name: 'Gift codes' });
    await gifts.getByLabel('Plan').selectOption({ label: planName });
    await gifts.getByLabel('How many').fill('3');
    await gifts.getByLabel('Note (optional)').fill('Newsletter');
    await gifts.getByRole('button', { name: 'Issue codes' }).click();
    await expect(page.getByText('3 gift codes issued')).toBeVisible();
    const codes = (await gifts.getByLabel(`The 3 new codes for ${planName}`).inputValue()).split('\n');
    expect(codes).toHaveLength(3);
    const download = page.waitForEvent('download');
    await gifts.getByRole('link', { name: 'Download CSV' }).click();
    const csv = readFileSync(await (await download).path(), 'utf8');
    expect(csv.split('\r\n')[0]).toBe('code,plan,status,redeemed_by,redeemed_at');
    for (const code of codes) expect(csv).toContain(`${code},${planName},unused`);
    // A code for another plan, to try on the customer's account.
    const plans = (await (await page.request.get('/api/admin/plans')).json()) as { id: string; name: string; isTrial: boolean }[];
    const otherPlan = plans.find((plan) => plan.name !== planName && !plan.isTrial)!;
    const otherBatch = await page.request.post('/api/admin/gift-codes', { data: { planId: otherPlan.id, count: 1 }, headers: { origin: site.baseURL } });
    const [otherCode] = ((await otherBatch.json()) as { codes: string[] }).codes;
    await page.context().clearCookies();

    await signIn(page, site, uniqueEmail('gift-customer'));
    await page.getByRole('button', { name: 'Redeem gift code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Redeem a gift code' });
    await dialog.getByLabel('Gift code').fill(codes[0]!.toLowerCase());
    await dialog.getByRole('button', { name: 'Redeem' }).click();
    await expect(page).toHaveURL(/\/thank-you\?session_id=free_/);
    await expect(page.getByRole('dialog', { name: /Your VPN Account is Ready/ })).toBeVisible({ timeout: 15_000 });
    expect(panel.users.size).toBe(1);

    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Redeem gift code' }).click();
    const again = page.getByRole('dialog', { name: 'Redeem a gift code' });
    await again.getByLabel('Gift code').fill(codes[0]!);
    await again.getByRole('button', { name: 'Redeem' }).click();
    await expect(again.getByRole('alert')).toHaveText('This gift code has already been used.');
    // The dialog offers to add a code's time only to an account on its plan (issue 57): the customer's for this
    // plan's code, none for another plan's (a new account, without a choice to get wrong).
    await again.getByLabel('Gift code').fill(codes[1]!);
    await expect(again.getByLabel('Use it for').getByRole('option')).toHaveCount(2);
    await expect(again.getByLabel('Use it for').getByRole('option', { name: /^Adding its time to / })).toHaveCount(1);
    await again.getByLabel('Gift code').fill(otherCode!);
    await expect(again.getByLabel('Use it for')).toHaveCount(0);
    await again.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Transaction History' }).click();
    await expect(page.getByRole('dialog', { name: 'Transaction History' }).getByRole('row').filter({ hasText: planName })).toContainText('Gift code');
    // The used code is refused twice: by the dialog's check of what it gives, then by the redemption.
    expect(consoleErrors).toEqual([
      'Failed to load resource: the server responded with a status of 409 (Conflict) at /api/gift-codes/check',
      'Failed to load resource: the server responded with a status of 409 (Conflict) at /api/gift-codes/redeem',
    ]);
  } finally {
    await panel.close();
  }
});
