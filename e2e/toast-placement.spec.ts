import { expect, test, uniqueEmail, waitForHydration } from './site.js';

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// At 1280 px the toasts sat over the header's links and language menu; on a phone, over its menu button.
test("a toast never covers the header's links, language menu or menu button", async ({ page, site }) => {
  await page.goto('/');
  await waitForHydration(page);
  const email = uniqueEmail('toast');
  const box = page.locator('#get-started');
  await box.getByLabel(/email/i).fill(email);
  await box.getByRole('button', { name: 'Instant Access' }).click();
  const toast = page.getByRole('region', { name: 'Notifications' }).locator('> div').filter({ hasText: 'Check your email for the sign-in code' });
  await expect(toast).toBeVisible();
  await site.smtp.waitFor(email);

  const toastBox = (await toast.boundingBox())!;
  const header = page.getByRole('banner');
  const headerBox = (await header.boundingBox())!;
  expect(toastBox.y).toBeGreaterThanOrEqual(headerBox.y + headerBox.height);

  const controls = header.locator('a:visible, button:visible');
  expect(await controls.count()).toBeGreaterThan(1);
  for (const control of await controls.all()) {
    const controlBox = await control.boundingBox();
    if (controlBox) expect(intersects(toastBox, controlBox), await control.evaluate((element) => element.outerHTML.slice(0, 80))).toBe(false);
  }
  // It still looks like a notification at the top of the screen, in the end corner on a wide one.
  expect(toastBox.y).toBeLessThan(headerBox.y + headerBox.height + 40);
});
