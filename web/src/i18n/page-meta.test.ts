import { describe, expect, it } from 'vitest';
import { pageMeta } from './page-meta';

describe('the document title of the admin pages', () => {
  it('is the Admin Panel on every tab and customer page, in each language; a tab that is none is not found', async () => {
    expect((await pageMeta('en', '/admin/payments', 'Lumen')).title).toBe('Admin Panel | Lumen');
    expect((await pageMeta('en', '/admin/users/42', 'Lumen')).title).toBe('Admin Panel | Lumen');
    expect((await pageMeta('ru', '/admin/logs', 'Lumen')).title).toBe((await pageMeta('ru', '/admin', 'Lumen')).title);
    expect((await pageMeta('en', '/admin/nope', 'Lumen')).title).toBe('Page Not Found | Lumen');
  });
});

describe('the document title of a payment link', () => {
  it('is Payment, whatever its token, in each language', async () => {
    expect((await pageMeta('en', '/pay/AbC123_-xyz', 'Lumen')).title).toBe('Payment | Lumen');
    expect((await pageMeta('ru', '/pay/AbC123_-xyz', 'Lumen')).title).toBe('Оплата | Lumen');
    expect((await pageMeta('en', '/pay/a/b', 'Lumen')).title).toBe('Page Not Found | Lumen');
  });
});
