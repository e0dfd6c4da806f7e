import type { Locator, Page } from '@playwright/test';
import { startFakeMarzneshin } from '../server/test/fake-panels/marzneshin.js';
import { addServerAndPlan, expect, postJson, signInAsNewAdmin, signInOverApi, test } from './site.js';

/**
 * Issue 57: every admin table with data, on a 390 px phone and a 1280 px desktop, shows what matters in full —
 * who, what, how much, its status, its buttons: no cell cut off by its box's edge, pushed off the screen or
 * hidden under a pinned column. A gift code's redemption reads as a gift code, not as "$0.00 · Card".
 */

/** Why `cell` is not fully to be seen without scrolling sideways (null when it is). */
async function hiddenPart(cell: Locator): Promise<string | null> {
  return cell.evaluate((element) => {
    const rect0 = element.getBoundingClientRect();
    window.scrollBy(0, rect0.top - window.innerHeight / 2);
    const rect = element.getBoundingClientRect();
    const label = (element.textContent ?? '').trim().slice(0, 40);
    if (rect.width === 0 || rect.height === 0) return `"${label}" is not drawn`;
    if (rect.left < -1 || rect.right > window.innerWidth + 1) return `"${label}" is off the screen (${Math.round(rect.left)}–${Math.round(rect.right)} px)`;
    if (element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible') return `"${label}" is cut off`;
    for (let box = element.parentElement; box; box = box.parentElement) {
      if (getComputedStyle(box).overflowX === 'visible') continue;
      const edge = box.getBoundingClientRect();
      if (rect.left < edge.left - 1 || rect.right > edge.right + 1)
        return `"${label}" is cut off by its box (${Math.round(rect.left)}–${Math.round(rect.right)} px in ${Math.round(edge.left)}–${Math.round(edge.right)} px)`;
    }
    const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    if (top && !element.contains(top) && !top.contains(element))
      return `"${label}" is covered by <${top.tagName.toLowerCase()}> "${(top.textContent ?? '').trim().slice(0, 30)}"`;
    return null;
  });
}

/** Every cell of `row` is there to read in full. */
async function expectRowReadable(page: Page, row: Locator, what: string): Promise<void> {
  await expect(row).toBeVisible();
  const cells = row.locator(':scope > td, :scope > th');
  const problems: string[] = [];
  for (let i = 0; i < (await cells.count()); i += 1) {
    const cell = cells.nth(i);
    if (((await cell.textContent()) ?? '').trim() === '' && (await cell.locator('button, a, select, input').count()) === 0) continue;
    // On a phone each cell says which column it is.
    if (page.viewportSize()!.width < 640) expect(await cell.evaluate((td) => getComputedStyle(td, '::before').content), what).toMatch(/^"\S/);
    const problem = await hiddenPart(cell);
    if (problem) problems.push(problem);
  }
  expect(problems, `${what} at ${page.viewportSize()?.width} px`).toEqual([]);
}

test('every admin table with data is readable on a 390 px phone and a 1280 px screen', async ({ page, site }) => {
  test.setTimeout(240_000);
  const panel = await startFakeMarzneshin();
  try {
    const admin = await signInAsNewAdmin(page, site, 'admin-tables');
    const tag = Date.now().toString(36);
    const planName = `Family plan with a long name ${tag}`;
    await addServerAndPlan(page, site, panel, { name: planName, price: 1299 });
    const post = async (url: string, data: object) => {
      const response = await page.request.post(url, { data, headers: { origin: site.baseURL } });
      expect(response.status(), url).toBeLessThan(300);
      return response.json();
    };
    const plans = (await (await page.request.get('/api/admin/plans')).json()) as { id: string; name: string }[];
    const planId = plans.find((plan) => plan.name === planName)!.id;
    const promo = `SPRING${tag}`.toUpperCase();
    await post('/api/admin/promo-codes', { code: promo, percentOff: 20, duration: 'once', maxRedemptions: 10 });
    const { codes } = (await post('/api/admin/gift-codes', { planId, count: 1, note: 'Partner shop' })) as { codes: string[] };

    // A customer with a long address redeems a gift code: a payment row with nothing paid.
    const customer = `a-rather-long-customer-address-${tag}@example-company.com`;
    const token = await signInOverApi(site, customer);
    expect((await postJson(site, '/api/gift-codes/redeem', { code: codes[0] }, token)).status).toBe(201);

    const checks: [path: string, row: (page: Page) => Locator, what: string][] = [
      ['/admin/users', (p) => p.getByRole('row').filter({ hasText: customer }), 'the Users table'],
      ['/admin/servers', (p) => p.getByRole('row').filter({ hasText: `Panel for ${planName}` }), 'the Servers table'],
      ['/admin/plans', (p) => p.getByRole('row').filter({ hasText: planName }), 'the Plans table'],
      ['/admin/promotions', (p) => p.getByRole('row').filter({ hasText: promo }), 'the promo codes table'],
      ['/admin/promotions', (p) => p.getByRole('region', { name: 'Gift codes' }).getByRole('row').filter({ hasText: 'Partner shop' }), 'the gift codes table'],
      ['/admin/payments', (p) => p.getByRole('row').filter({ hasText: customer }).first(), 'the Payments table'],
      ['/admin/staff', (p) => p.getByRole('row').filter({ hasText: admin }), 'the Staff table'],
      ['/admin/audit', (p) => p.getByRole('row').filter({ hasText: 'gift' }).first(), 'the Audit table'],
    ];
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      for (const [path, row, what] of checks) {
        await page.goto(path);
        await expectRowReadable(page, row(page), what);
      }
      // A gift code's redemption is its own kind of payment: the code, no "$0.00 · Card".
      await page.goto('/admin/payments');
      const redemption = page.getByRole('row').filter({ hasText: customer }).first();
      await expect(redemption).toContainText('Gift code');
      await expect(redemption).toContainText(codes[0]!);
      await expect(redemption).not.toContainText('$0.00');
      await expect(redemption).not.toContainText('Card');
      // Its own entry in the filter too: listed under Gift code, not under Card or Balance.
      const transactions = page.getByRole('region', { name: 'Transactions' });
      const method = transactions.getByLabel('Paid with');
      for (const [option, listed] of [
        ['Gift code', true],
        ['Card', false],
        ['Balance', false],
      ] as const) {
        await method.selectOption({ label: option });
        await expect(transactions.getByRole('row').filter({ hasText: customer }).first(), option)[listed ? 'toBeVisible' : 'toBeHidden']();
      }
      await method.selectOption({ label: 'Every method' });
      // The promo code's discount as English writes a percentage, its kind as a label.
      await page.goto('/admin/promotions');
      await expect(page.getByRole('row').filter({ hasText: promo })).toContainText('20% · First payment');
    }
  } finally {
    await panel.close();
  }
});
