import type { Browser, Page } from '@playwright/test';
import { runAdminCommand } from '../server/src/cli/admin.js';
import { expect, signIn, test, uniqueEmail, type Site } from './site.js';

/**
 * Operator texts per language (issue 26): the admin writes a plan's Russian name and features in the plan
 * dialog, beside the English, and the Russian pricing page carries them at once; Site content takes a
 * locations claim per language, which the pages of that language say.
 *
 * The pricing cards' own display of the translations is the web display's (another change): here the served
 * /ru/pricing is read for the plans it embeds, and the served Russian page for the claim it was filled with.
 */

const GB = 1024 ** 3;

async function signInNewAdmin(browser: Browser, site: Site): Promise<Page> {
  const email = uniqueEmail('admin-translations');
  await runAdminCommand(site.database.db, ['grant', email]);
  const context = await browser.newContext({ baseURL: site.baseURL });
  const page = await context.newPage();
  await signIn(page, site, email);
  return page;
}

/** The plans a served page embeds for the browser (its JSON island). */
async function embeddedPlans(page: Page, path: string): Promise<Array<{ id: string; name: string; translations: Record<string, { name?: string; features?: string[] }> }>> {
  const html = await (await page.request.get(path)).text();
  const json = /<script type="application\/json" id="app-plans">([\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(json, `${path} embeds the plans`).toBeTruthy();
  return JSON.parse(json!);
}

test("the admin writes a plan's Russian name and features beside the English ones, and /ru/pricing has them at once", async ({ browser, site }, testInfo) => {
  const admin = await signInNewAdmin(browser, site);
  const headers = { origin: site.baseURL };
  const tag = `${Date.now()}`;
  const created = await admin.request.post('/api/admin/plans', {
    headers,
    data: { name: `Family Monthly ${tag}`, days: 30, dataLimitBytes: 100 * GB, price: 899, tier: `Family ${tag}`, public: true, sortOrder: 98_000, features: ['100 GB of data every month', 'Five people'] },
  });
  expect(created.status()).toBe(201);
  const plan = (await created.json()) as { id: string; name: string };
  try {
    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Plans' }).click();
    const row = admin.getByRole('row').filter({ has: admin.getByRole('cell', { name: plan.name, exact: true }) });
    await row.getByRole('button', { name: `Edit ${plan.name}` }).click();
    const form = admin.getByRole('dialog');

    // English is the plan's own text; each other language shows it as the placeholder until written.
    await expect(form.getByLabel('Name', { exact: true })).toHaveValue(plan.name);
    const russianName = form.getByLabel('Name (Русский)', { exact: true });
    await expect(russianName).toHaveValue('');
    await expect(russianName).toHaveAttribute('placeholder', plan.name);
    await expect(form.getByLabel('Features (فارسی)')).toHaveAttribute('placeholder', '100 GB of data every month\nFive people');
    // Persian is typed right to left (its input follows what is typed), the admin's labels stay as they are.
    await expect(form.getByLabel('Features (فارسی)')).toHaveAttribute('lang', 'fa');
    await expect(form.getByLabel('Features (فارسی)')).toHaveAttribute('dir', 'auto');

    // Side by side on a wide screen; one above the other on a phone.
    const english = await form.locator('[data-plan-language="en"]').boundingBox();
    const russian = await form.locator('[data-plan-language="ru"]').boundingBox();
    if (testInfo.project.name === 'phone') expect(russian!.y).toBeGreaterThan(english!.y + english!.height - 1);
    else expect(Math.abs(russian!.y - english!.y)).toBeLessThan(2);

    await russianName.fill(`Семейный ${tag}`);
    await form.getByLabel('Features (Русский)').fill('100 ГБ трафика в месяц\nДо пяти человек');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(admin.getByText('Plan updated successfully')).toBeVisible();

    const russianPlan = (await embeddedPlans(admin, '/ru/pricing')).find((listed) => listed.id === plan.id);
    expect(russianPlan?.translations.ru).toEqual({ name: `Семейный ${tag}`, features: ['100 ГБ трафика в месяц', 'До пяти человек'] });
    expect(russianPlan?.name).toBe(plan.name);

    // Opened again, the dialog shows what was saved.
    await row.getByRole('button', { name: `Edit ${plan.name}` }).click();
    await expect(admin.getByRole('dialog').getByLabel('Name (Русский)', { exact: true })).toHaveValue(`Семейный ${tag}`);
  } finally {
    await admin.request.delete(`/api/admin/plans/${plan.id}`, { headers });
    await admin.context().close();
  }
});

test('the admin gives the Russian pages their own number of locations; the English ones keep theirs', async ({ browser, site }) => {
  const admin = await signInNewAdmin(browser, site);
  const headers = { origin: site.baseURL };
  try {
    await admin.goto('/admin');
    await admin.getByRole('tab', { name: 'Settings' }).click();
    const content = admin.getByRole('region', { name: 'Site content' });
    const russian = content.getByLabel('Русский');
    await expect(russian).toHaveAttribute('placeholder', '50+');
    await russian.fill('lots');
    await content.getByRole('button', { name: 'Save site content' }).click();
    await expect(content.getByText(/A number, optionally followed by \+/)).toBeVisible();

    await russian.fill('45+');
    await content.getByRole('button', { name: 'Save site content' }).click();
    await expect(admin.getByText('Site content updated')).toBeVisible();

    expect(await (await admin.request.get('/ru/features/locations')).text()).toContain('45+');
    const englishPage = await (await admin.request.get('/features/locations')).text();
    expect(englishPage).toContain('50+ Global Locations');
    expect(englishPage).not.toContain('45+ Global');
    expect((await (await admin.request.get('/api/config')).json()).siteContentTranslations).toEqual({ ru: { locationsClaim: '45+' } });
  } finally {
    const restored = await admin.request.put('/api/admin/settings', { data: { siteContentTranslations: {} }, headers });
    expect(restored.status()).toBe(200);
    await admin.context().close();
  }
});
