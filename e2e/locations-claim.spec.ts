import { expect, test, waitForHydration } from './site.js';

/**
 * The locations claim ('50+', Settings → Site content) is a number: each language's pages write it in
 * their own digits (issue 26: /fa/download/windows showed Latin digits in a Persian sentence).
 */
test("a number claim is written in the page's digits: Persian digits on /fa/ pages, Latin ones elsewhere", async ({ page, consoleErrors }) => {
  await page.goto('/fa/download/windows');
  await waitForHydration(page);
  await expect(page.getByText('۵۰+ موقعیت', { exact: true })).toBeVisible();
  await expect(page.getByText(/50\+/)).toHaveCount(0);

  await page.goto('/fa/features/locations');
  await waitForHydration(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('۵۰+ موقعیت در سراسر جهان');

  await page.goto('/zh/download/windows');
  await waitForHydration(page);
  await expect(page.getByText(/50\+/).first()).toBeVisible();
  // The page hydrated with what the server wrote (already in its digits): no hydration error.
  expect(consoleErrors).toEqual([]);
});
