import { describe, expect, it } from 'vitest';
import { ADMIN_TAB_IDS, adminTabAt, adminTabPath } from './admin-tabs.js';
import { APP_PAGES } from './site-pages.js';

describe('the admin tabs as paths', () => {
  it('gives each tab a path that leads back to it; the overview is /admin', () => {
    expect(adminTabPath('overview')).toBe('/admin');
    expect(adminTabPath('payments')).toBe('/admin/payments');
    for (const tab of ADMIN_TAB_IDS) expect(adminTabAt(adminTabPath(tab))).toBe(tab);
    expect(adminTabAt('/admin/payments/')).toBe('payments');
  });

  it('opens the Settings tab at each of its sections, known or not (an unknown one shows the first)', () => {
    expect(adminTabAt('/admin/settings/payments')).toBe('settings');
    expect(adminTabAt('/admin/settings/no-such-section/')).toBe('settings');
    expect(adminTabAt('/admin/settings/payments/card')).toBeUndefined();
    expect(APP_PAGES.find((page) => page.path === '/admin/settings/:section')?.title).toBe('Admin Panel');
  });

  it('knows no tab at any other path', () => {
    for (const path of ['/admin/nope', '/admin/users/42', '/admin/overview', '/payments', '/']) expect(adminTabAt(path), path).toBeUndefined();
  });

  it('is a page of the app at every tab path, so the server serves the app there (a reload keeps the tab)', () => {
    const appPaths = APP_PAGES.map((page) => page.path);
    for (const tab of ADMIN_TAB_IDS) expect(appPaths).toContain(adminTabPath(tab));
    expect(APP_PAGES.find((page) => page.path === '/admin/payments')?.title).toBe('Admin Panel');
  });
});
