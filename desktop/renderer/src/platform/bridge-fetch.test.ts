import { describe, expect, it, vi } from 'vitest';
import type { BridgeRequest, BridgeResponse } from '../../../../shared/platform-bridge.js';
import { createApiClient } from '../../../../web/src/api/api-client';
import { CLIENT_ERROR_CODES } from '../../../../web/src/api/api-error';
import { createBridgeFetch } from './bridge-fetch';

/** The web app's API client over a bridge that answers with `answers` in turn, recording each call. */
function clientOver(...answers: BridgeResponse[]) {
  const calls: BridgeRequest[] = [];
  const request = vi.fn(async (call: BridgeRequest) => {
    calls.push(call);
    return answers.shift() ?? { status: 500, body: '' };
  });
  const client = createApiClient({ credentials: 'omit', fetch: createBridgeFetch({ request }), refreshSession: async () => false });
  return { client, calls };
}

describe('the bridge-backed fetch', () => {
  it('sends the method, the /api path and the JSON body, and reads the JSON answer', async () => {
    const { client, calls } = clientOver({ status: 200, body: '{"user":{"email":"a@example.com"}}' });
    const answer = await client.request('POST', '/api/auth/verify', { body: { email: 'a@example.com', code: '123456' } });
    expect(calls).toEqual([{ method: 'POST', path: '/api/auth/verify', body: { email: 'a@example.com', code: '123456' } }]);
    expect(answer).toEqual({ user: { email: 'a@example.com' } });
  });

  it('sends no body for a call without one', async () => {
    const { client, calls } = clientOver({ status: 200, body: '[]' });
    await client.request('GET', '/api/accounts');
    expect(calls).toEqual([{ method: 'GET', path: '/api/accounts' }]);
  });

  it('turns an empty 204 into an empty result', async () => {
    const { client } = clientOver({ status: 204, body: '' });
    await expect(client.request('POST', '/api/auth/logout', { body: { scope: 'local' } })).resolves.toBeUndefined();
  });

  it("gives the server's error code and message to the screen", async () => {
    const { client } = clientOver({ status: 409, body: '{"code":"trial_used","message":"Trial Already Used"}' });
    await expect(client.request('POST', '/api/accounts', { body: { planId: 'p' } })).rejects.toMatchObject({
      status: 409,
      code: 'trial_used',
      message: 'Trial Already Used',
    });
  });

  it('reports a server that did not answer (status 0) as a network error', async () => {
    const { client } = clientOver({ status: 0, body: '' });
    await expect(client.request('GET', '/api/health')).rejects.toMatchObject({ code: CLIENT_ERROR_CODES.network });
  });

  it('reports an expired session once the main process could not renew it (a 401 it passed on)', async () => {
    const { client, calls } = clientOver({ status: 401, body: '{"code":"unauthorized","message":"Sign in again."}' });
    const expired = vi.fn();
    client.onSessionExpired(expired);
    await expect(client.request('GET', '/api/accounts')).rejects.toMatchObject({ status: 401 });
    expect(expired).toHaveBeenCalledOnce();
    expect(calls).toHaveLength(1);
  });

  it('rejects an aborted call with the abort reason, whenever the answer comes', async () => {
    let answer: (response: BridgeResponse) => void = () => {};
    const request = () => new Promise<BridgeResponse>((resolve) => (answer = resolve));
    const bridgeFetch = createBridgeFetch({ request });
    const controller = new AbortController();
    const pending = bridgeFetch('/api/accounts', { method: 'GET', signal: controller.signal });
    controller.abort();
    answer({ status: 200, body: '[]' });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(bridgeFetch('/api/accounts', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
