/**
 * The sandboxed preload: exposes `window.platform`, the one typed bridge to the main process
 * (shared/platform-bridge.ts). Each method invokes its channel; no `ipcRenderer` and no IPC event
 * object reach the page. Built as CommonJS (a sandboxed preload cannot be an ES module).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_CHANNELS, type PlatformBridge } from '../../shared/platform-bridge.js';

const bridge = {
  request: (call) => ipcRenderer.invoke(BRIDGE_CHANNELS.request, call),
  getServerUrl: () => ipcRenderer.invoke(BRIDGE_CHANNELS.getServerUrl),
  setServerUrl: (url) => ipcRenderer.invoke(BRIDGE_CHANNELS.setServerUrl, url),
  detectClients: () => ipcRenderer.invoke(BRIDGE_CHANNELS.detectClients),
  openDeepLink: (link) => ipcRenderer.invoke(BRIDGE_CHANNELS.openDeepLink, link),
  openExternal: (url) => ipcRenderer.invoke(BRIDGE_CHANNELS.openExternal, url),
  onFocus(listener) {
    const forward = () => listener();
    ipcRenderer.on(BRIDGE_CHANNELS.focus, forward);
    return () => {
      ipcRenderer.removeListener(BRIDGE_CHANNELS.focus, forward);
    };
  },
  getUpdateStatus: () => ipcRenderer.invoke(BRIDGE_CHANNELS.getUpdateStatus),
  onUpdateReady(listener) {
    const forward = (_event: unknown, version: unknown) => {
      if (typeof version === 'string') listener(version);
    };
    ipcRenderer.on(BRIDGE_CHANNELS.updateReady, forward);
    return () => {
      ipcRenderer.removeListener(BRIDGE_CHANNELS.updateReady, forward);
    };
  },
  restartToUpdate: () => ipcRenderer.invoke(BRIDGE_CHANNELS.restartToUpdate),
} satisfies PlatformBridge;

contextBridge.exposeInMainWorld('platform', bridge);
