import { describe, expect, it } from 'vitest';
import { userPageBackPath, userPageState } from './user-page/user-page-return';
import { usersFilterFrom, usersQueryFor } from './users-query';

describe("the Users tab's search and filters in its URL", () => {
  it('reads back what it wrote, and leaves out what is not set', () => {
    const query = usersQueryFor({ q: 'ann@', role: 'admin', active: true });
    expect(query.toString()).toBe('q=ann%40&role=admin&active=true');
    expect(usersFilterFrom(query)).toEqual({ q: 'ann@', role: 'admin', active: true, pastDue: undefined });
    expect(usersQueryFor({ q: '' }).toString()).toBe('');
  });

  it('takes one filter named `filter=`, as a hand-written link may give it', () => {
    expect(usersFilterFrom(new URLSearchParams('q=ann&filter=pastDue'))).toEqual({ q: 'ann', role: undefined, active: undefined, pastDue: true });
    expect(usersFilterFrom(new URLSearchParams('filter=past_due')).pastDue).toBe(true);
    expect(usersFilterFrom(new URLSearchParams('filter=active')).active).toBe(true);
    expect(usersFilterFrom(new URLSearchParams('filter=admin')).role).toBe('admin');
    expect(usersFilterFrom(new URLSearchParams('filter=everyone'))).toEqual({ q: '', role: undefined, active: undefined, pastDue: undefined });
  });

  it('ignores a role that is none and a flag that is not true', () => {
    expect(usersFilterFrom(new URLSearchParams('role=root&pastDue=1'))).toEqual({ q: '', role: undefined, active: undefined, pastDue: undefined });
  });
});

describe("the customer page's back link", () => {
  it('goes back to the list it came from, with its query', () => {
    expect(userPageBackPath(userPageState({ pathname: '/admin/users', search: '?q=ann&active=true' }))).toBe('/admin/users?q=ann&active=true');
    expect(userPageBackPath(userPageState({ pathname: '/admin/payments', search: '' }))).toBe('/admin/payments');
  });

  it('goes to the Users tab when the page was opened another way, or the history entry names no admin tab', () => {
    expect(userPageBackPath(null)).toBe('/admin/users');
    expect(userPageBackPath({ from: 'https://evil.example/admin/users' })).toBe('/admin/users');
    expect(userPageBackPath({ from: '//evil.example/admin/users' })).toBe('/admin/users');
    expect(userPageBackPath({ from: '/admin/users/123' })).toBe('/admin/users');
  });
});
