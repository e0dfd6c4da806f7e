/**
 * Run by session-store.secret-service.test.ts inside `dbus-run-session` with gnome-keyring unlocked:
 * saves, reads back (through a second store, as after a restart), and deletes a refresh token with
 * the real @napi-rs/keyring, pinned to the Secret Service, and prints what it saw as one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findCredentialsAsync } from '@napi-rs/keyring';
import { createOsKeyring, createSessionStore } from '../session-store.js';

const service = process.argv[2] ?? 'com.lumenvpn.desktop.test';
const settingsDir = mkdtempSync(join(tmpdir(), 'keychain-roundtrip-'));
const keyring = createOsKeyring({ linux: { store: 'secret-service' } });
const open = () =>
  createSessionStore({
    keyring,
    settingsDir,
    service,
    defaultServerUrl: 'https://vpn.example.com',
    warn: (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    },
  });

try {
  await open().saveRefreshToken('ann@example.com', 'refresh-token-1');
  const stored = await findCredentialsAsync(service);
  const afterRestart = await open().readRefreshToken();
  const restarted = open();
  await restarted.replaceRefreshToken('refresh-token-2');
  const afterRotation = await open().readRefreshToken();
  await restarted.deleteRefreshToken();
  const afterDelete = await open().readRefreshToken();
  const remaining = await findCredentialsAsync(service);
  console.log(JSON.stringify({ stored, afterRestart, afterRotation, afterDelete, remaining }));
} finally {
  rmSync(settingsDir, { recursive: true, force: true });
}
