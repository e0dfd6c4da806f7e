import { describe, expect, it, vi } from 'vitest';
import { announcingChanges, onAdminChange } from './admin-changes';
import type { ApiClient } from './api-client';

function fakeClient(fail = false): ApiClient {
  return {
    request: vi.fn(async () => {
      if (fail) throw new Error('refused');
      return { ok: true } as never;
    }),
    onSessionExpired: () => () => {},
  };
}

describe('announcing admin saves (the setup checklist reads again after one)', () => {
  it('tells the listeners after a save went through, not after a read', async () => {
    const listener = vi.fn();
    const stop = onAdminChange(listener);
    const client = announcingChanges(fakeClient());
    await client.request('GET', '/api/admin/setup');
    expect(listener).not.toHaveBeenCalled();
    await expect(client.request('PUT', '/api/admin/settings', { body: { brandName: 'Lumen' } })).resolves.toEqual({ ok: true });
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    await client.request('POST', '/api/admin/plans', { body: {} });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('tells nobody when the save was refused', async () => {
    const listener = vi.fn();
    const stop = onAdminChange(listener);
    await expect(announcingChanges(fakeClient(true)).request('PUT', '/api/admin/settings', { body: {} })).rejects.toThrow('refused');
    expect(listener).not.toHaveBeenCalled();
    stop();
  });
});
