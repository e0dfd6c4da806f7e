import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, signInAsNewAdmin, test } from './site.js';

test("the admin changes a plan's price, finds it in Audit by its action with before and after, and downloads the CSV", async ({
  page,
  site,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  const panel = await startFakeMarzneshin();
  const plan = `Audit plan ${Date.now()}`;
  try {
    await signInAsNewAdmin(page, site, 'admin-audit-tab');
    await addServerAndPlan(page, site, panel, { name: plan, price: 499 });
    const plans = (await (await page.request.get('/api/admin/plans')).json()) as Array<{ id: string; name: string }>;
    const planId = plans.find((candidate) => candidate.name === plan)!.id;
    expect((await page.request.patch(`/api/admin/plans/${planId}`, { data: { price: 799 }, headers: { origin: site.baseURL } })).status()).toBe(200);

    await page.goto('/admin');
    await page.getByRole('tab', { name: 'Audit' }).click();
    await expect(page).toHaveURL(/\/admin\/audit/);
    const filters = page.getByRole('search', { name: 'Audit filters' });
    await filters.getByLabel('Action starts with').fill('plan.update');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/action=plan\.update/);
    const row = page.getByRole('row').filter({ hasText: 'Plan changed' }).first();
    await expect(row).toContainText(plan);
    await expect(row.getByTestId('audit-change').filter({ hasText: 'price' })).toContainText('499 → 799');
    await page.screenshot({ path: test.info().outputPath('audit.png'), fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), filters.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await (await download.createReadStream()).toArray();
    const text = Buffer.concat(csv.map((chunk) => Buffer.from(chunk as Buffer))).toString('utf8');
    expect(text.split('\r\n')[0]).toBe('id,createdAt,actorEmail,actorId,action,targetType,targetId,userId,ip,details');
    expect(text).toContain('"plan.update"');
    expect(text).not.toContain('"plan.create"');
    expect(consoleErrors).toEqual([]);
  } finally {
    await panel.close();
  }
});
