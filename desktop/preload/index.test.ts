import { beforeAll, describe, expect, it, vi } from 'vitest';
import { BRIDGE_CHANNELS, type PlatformBridge } from '../../shared/platform-bridge.js';

const electron = vi.hoisted(() => {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  return {
    exposed: new Map<string, unknown>(),
    listeners,
    invoke: vi.fn(async (..._args: unknown[]) => 'answer'),
  };
});

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api) },
  ipcRenderer: {
    invoke: electron.invoke,
    on(channel: string, listener: (...args: unknown[]) => void) {
      if (!electron.listeners.has(channel)) electron.listeners.set(channel, new Set());
      electron.listeners.get(channel)!.add(listener);
    },
    removeListener(channel: string, listener: (...args: unknown[]) => void) {
      electron.listeners.get(channel)?.delete(listener);
    },
  },
}));

describe('preload bridge', () => {
  let bridge: PlatformBridge;
  beforeAll(async () => {
    await import('./index.js');
    bridge = electron.exposed.get('platform') as PlatformBridge;
  });

  it('exposes window.platform with the contract’s methods and nothing else', () => {
    expect([...electron.exposed.keys()]).toEqual(['platform']);
    expect(Object.keys(bridge).sort()).toEqual([
      'detectClients',
      'getServerUrl',
      'getUpdateStatus',
      'onFocus',
      'onUpdateReady',
      'openDeepLink',
      'openExternal',
      'request',
      'restartToUpdate',
      'setServerUrl',
    ]);
    expect(Object.values(bridge).every((value) => typeof value === 'function')).toBe(true);
  });

  it('invokes one channel per method with the argument as given', async () => {
    const call = { method: 'GET' as const, path: '/api/me' };
    expect(await bridge.request(call)).toBe('answer');
    await bridge.getServerUrl();
    await bridge.setServerUrl('https://vpn.example.net');
    await bridge.detectClients();
    await bridge.openDeepLink('hiddify://import/x');
    await bridge.openExternal('https://vpn.example.com/');
    await bridge.getUpdateStatus();
    await bridge.restartToUpdate();
    expect(electron.invoke.mock.calls).toEqual([
      [BRIDGE_CHANNELS.request, call],
      [BRIDGE_CHANNELS.getServerUrl],
      [BRIDGE_CHANNELS.setServerUrl, 'https://vpn.example.net'],
      [BRIDGE_CHANNELS.detectClients],
      [BRIDGE_CHANNELS.openDeepLink, 'hiddify://import/x'],
      [BRIDGE_CHANNELS.openExternal, 'https://vpn.example.com/'],
      [BRIDGE_CHANNELS.getUpdateStatus],
      [BRIDGE_CHANNELS.restartToUpdate],
    ]);
  });

  it('onFocus calls the listener without the IPC event, and unsubscribes', () => {
    const listener = vi.fn();
    const unsubscribe = bridge.onFocus(listener);
    const emit = () => electron.listeners.get(BRIDGE_CHANNELS.focus)?.forEach((l) => l({ sender: 'the IPC event' }, 'extra'));

    emit();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledWith();
    unsubscribe();
    emit();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(electron.listeners.get(BRIDGE_CHANNELS.focus)?.size).toBe(0);
  });

  it('onUpdateReady gives the listener the version only (a string), without the IPC event, and unsubscribes', () => {
    const listener = vi.fn();
    const unsubscribe = bridge.onUpdateReady(listener);
    const emit = (version: unknown) => electron.listeners.get(BRIDGE_CHANNELS.updateReady)?.forEach((l) => l({ sender: 'the IPC event' }, version));

    emit('1.3.0');
    emit({ not: 'a version' });
    expect(listener.mock.calls).toEqual([['1.3.0']]);
    unsubscribe();
    emit('1.4.0');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(electron.listeners.get(BRIDGE_CHANNELS.updateReady)?.size).toBe(0);
  });
});
