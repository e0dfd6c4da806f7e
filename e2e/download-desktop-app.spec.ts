import type { PublicConfig } from '../shared/config.js';
import { publishDesktopRelease } from '../scripts/publish-desktop-release.js';
import { writeRelease } from '../server/test/desktop-release-fixture.js';
import { expect, test, waitForHydration } from './site.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The download pages offer the operator's own desktop app once a release is published (npm run desktop:publish):
 * version, size and SHA-256 of each installer, the platform's own first; before that, only the open-source clients.
 */
test('/download/windows offers the published installer with version, size and SHA-256, and only the third-party clients before', async ({
  page,
  site,
  consoleErrors,
}) => {
  test.setTimeout(60_000);
  const { brandName } = (await (await fetch(`${site.baseURL}/api/config`)).json()) as PublicConfig;
  const ownApp = page.getByTestId('own-desktop-app');

  const answered = page.waitForResponse((res) => res.url().endsWith('/api/desktop/releases'));
  await page.goto('/download/windows');
  await waitForHydration(page);
  await answered;
  await expect(page.getByRole('heading', { name: 'Hiddify' })).toBeVisible();
  await expect(ownApp).toHaveCount(0);

  const artifacts = mkdtempSync(join(tmpdir(), 'e2e-release-'));
  try {
    const release = writeRelease(artifacts, '1.4.0');
    await publishDesktopRelease({ from: artifacts, to: site.desktopUpdatesDir, channel: 'stable' });
    // The storefront looks at the feeds again every 2 s.
    await expect
      .poll(
        async () => {
          await page.reload();
          await waitForHydration(page);
          await page.waitForLoadState('networkidle');
          return ownApp.count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);

    await expect(ownApp.getByRole('heading')).toHaveText(`${brandName} for Windows`);
    await expect(ownApp).toContainText('Version 1.4.0.');
    const [exe, appx] = [release.windows.files[0]!, release.windows.beside[0]!];
    const download = ownApp.getByRole('link', { name: 'Download .exe' });
    await expect(download).toHaveAttribute('href', `/desktop/updates/stable/${encodeURIComponent(exe.name)}`);
    await expect(ownApp).toContainText(`${exe.name} · 4 kB`);
    await expect(ownApp).toContainText(exe.sha256);
    await expect(ownApp.getByRole('link', { name: 'Download .appx' })).toBeVisible();
    await expect(ownApp).toContainText(appx.sha256);
    // Ours comes first, the open-source apps after it.
    const order = await page.locator('[data-testid="own-desktop-app"], h3:text-is("Hiddify")').evaluateAll((nodes) => nodes.map((n) => n.tagName));
    expect(order).toEqual(['SECTION', 'H3']);

    // The link downloads exactly the published file.
    const answer = await fetch(site.baseURL + (await download.getAttribute('href'))!);
    expect(Buffer.from(await answer.arrayBuffer()).equals(exe.bytes)).toBe(true);

    // The macOS page offers the DMG (not the update zip), in the page's language.
    await page.goto('/ru/download/macos');
    await waitForHydration(page);
    await expect(ownApp.getByRole('link')).toHaveText(['Скачать .dmg']);
    await expect(ownApp).toContainText('Версия 1.4.0.');
    // Android has no desktop app.
    await page.goto('/download/android');
    await waitForHydration(page);
    await page.waitForLoadState('networkidle');
    await expect(ownApp).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  } finally {
    rmSync(artifacts, { recursive: true, force: true });
  }
});
