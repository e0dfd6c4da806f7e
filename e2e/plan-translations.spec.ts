import type { Browser, Page } from '@playwright/test';
import { runAdminCommand } from '../server/src/cli/admin.js';
import { expect, signIn, test, uniqueEmail, waitForHydration, type Site } from './site.js';

/**
 * Operator texts per language (issue 26): the admin writes a plan's Russian name and features in the plan
 * dialog, beside the English, and the Russian pricing page carries them at once; Site content takes a
 * locations claim per language, which the pages of that language say.
 *
 * The served /ru/pricing is read for the plans it embeds and then looked at in the browser; the seeded plans
 * read in each language on the pricing page and the dashboard.
 */

const GB = 1024 ** 3;

async function signInNewAdmin(browser: Browser, site: Site): Promise<Page> {
  const email = uniqueEmail('admin-translations');
  await runAdminCommand(site.services, ['grant', email]);
  const context = await browser.newContext({ baseURL: site.baseURL });
  const page = await context.newPage();
  await signIn(page, site, email);
  return page;
}

/** The plans a served page embeds for the browser (its JSON island). */
async function embeddedPlans(
  page: Page,
  path: string,
): Promise<Array<{ id: string; name: string; translations: Record<string, { name?: string; features?: string[] }> }>> {
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
    data: {
      name: `Family Monthly ${tag}`,
      days: 30,
      dataLimitBytes: 100 * GB,
      price: 899,
      tier: `Family ${tag}`,
      public: true,
      sortOrder: 98_000,
      features: ['100 GB of data every month', 'Five people'],
    },
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
    // …and its card says so: the Russian name under the tier, the Russian feature lines nowhere English.
    const russianPage = await admin.context().newPage();
    await russianPage.goto('/ru/pricing');
    await waitForHydration(russianPage);
    await russianPage.getByRole('group').getByRole('button', { name: '1 месяц', exact: true }).click();
    // Every period's list has the tier (its nearest plan); the month's shows it.
    await expect(russianPage.getByRole('list', { name: 'Тарифы на 1 месяц' }).getByText(`Семейный ${tag}`, { exact: true })).toBeVisible();
    await expect(russianPage.getByText(plan.name, { exact: true })).toHaveCount(0);
    await russianPage.close();

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
    await admin.getByRole('navigation', { name: 'Settings sections' }).getByRole('link', { name: 'Site content' }).click();
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

/** The seeded plans' texts as each language writes them (server/src/modules/plans/seed-plan-texts.ts). */
const SEEDED = [
  { prefix: '/ru', tier: 'Плюс', twoYears: 'Плюс 2 года', month: 'Плюс 1 месяц', monthData: /300 ГБ трафика в месяц/, english: 'Plus 1 Month' },
  { prefix: '/fa', tier: 'پلاس', twoYears: 'پلاس ۲ ساله', month: 'پلاس ۱ ماهه', monthData: /۳۰۰ گیگابایت داده در ماه/, english: 'Plus 1 Month' },
  { prefix: '/zh', tier: '高级版', twoYears: '高级版 2 年', month: '高级版 1 个月', monthData: /每月 300 GB 流量/, english: 'Plus 1 Month' },
] as const;

test("the seeded plans' names, tiers and features read in the page's language on the pricing page and the dashboard", async ({ page, site }) => {
  for (const language of SEEDED) {
    await page.goto(`${language.prefix}/pricing`);
    const card = page.getByRole('article', { name: language.tier, exact: true });
    await expect(card).toBeVisible();
    await expect(card.getByText(language.twoYears, { exact: true })).toBeVisible();
    await expect(page.getByText('Plus 2 Years', { exact: true })).toHaveCount(0);
  }

  await signIn(page, site, uniqueEmail('seeded-texts'));
  for (const language of SEEDED) {
    await page.goto(`${language.prefix}/dashboard`);
    await expect(page.getByText(language.month, { exact: true }).first()).toBeVisible();
    await expect(page.getByText(language.monthData).first()).toBeVisible();
    await expect(page.getByText(language.english, { exact: true })).toHaveCount(0);
  }
});
