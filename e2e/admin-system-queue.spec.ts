import { createJobsRepo } from '../server/src/jobs/jobs.repo.js';
import { expect, signInAsNewAdmin, test } from './site.js';

/**
 * Issue 57: the System tab said "Queued: 11" and no more. It shows what the queue holds, by job type, whether
 * those jobs wait for their time (normal) or are past it, and a line saying what is normal.
 */
test('the System tab says what the job queue holds and what is normal, at 390 px and 1280 px', async ({ page, site }) => {
  const now = new Date();
  const jobs = createJobsRepo(site.database.db);
  const type = `e2e_reminder_${Date.now().toString(36)}`;
  for (const days of [1, 2, 3]) await jobs.enqueue({ type, payload: {}, runAt: new Date(now.getTime() + days * 86_400_000) }, now);
  await signInAsNewAdmin(page, site, 'admin-queue');

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/admin/system');
    await expect(
      page.getByText(/Most queued jobs are scheduled ones waiting for their time .* that is normal\. Jobs due for more than 5 minutes/),
    ).toBeVisible();
    const row = page.getByRole('table', { name: 'What is queued' }).getByRole('row').filter({ hasText: type });
    const cells = row.getByRole('cell');
    await expect(cells.nth(0)).toHaveText(type);
    await expect(cells.nth(1)).toHaveText('3'); // waiting for their time
    await expect(cells.nth(2)).toHaveText('0'); // due now
    await expect(cells.nth(4)).toHaveText('Scheduled');
    for (let i = 0; i < 5; i += 1) {
      const box = (await cells.nth(i).boundingBox())!;
      expect(box.x + box.width, `cell ${i} at ${width} px`).toBeLessThanOrEqual(width);
    }
  }
});
