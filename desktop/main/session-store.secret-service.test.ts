import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The session store against a real OS keychain: the Secret Service of gnome-keyring, in a D-Bus
 * session of its own (stack.md, "Keychain tests on Linux"). CI installs both (.ci/run).
 */
const hasCommand = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
const available = process.platform === 'linux' && hasCommand('dbus-run-session') && hasCommand('gnome-keyring-daemon');
const reason = 'needs Linux with dbus-run-session and gnome-keyring-daemon (apt-get install -y dbus gnome-keyring)';

const script = fileURLToPath(new URL('./testing/keychain-roundtrip.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

function runInKeyringSession(service: string): Promise<string> {
  // A throwaway keyring folder, so the test never touches the machine's own keyrings.
  const dataHome = mkdtempSync(join(tmpdir(), 'keyring-home-'));
  const command = 'printf "throwaway-password" | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$0" --import tsx "$1" "$2"';
  return new Promise((resolve, reject) => {
    execFile(
      'dbus-run-session',
      ['--', 'sh', '-c', command, process.execPath, script, service],
      { cwd: root, timeout: 30_000, env: { ...process.env, XDG_DATA_HOME: dataHome } },
      (error, stdout, stderr) => {
        rmSync(dataHome, { recursive: true, force: true });
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

describe('session store with the real Secret Service', () => {
  const title = 'saves, finds after a restart, rotates and deletes the refresh token';
  (available ? it : it.skip)(available ? title : `${title} (skipped: ${reason})`, async () => {
    const service = `com.lumenvpn.desktop.test-${process.pid}`;
    const output = await runInKeyringSession(service);
    const lastLine = output.trim().split('\n').at(-1) ?? '';

    expect(JSON.parse(lastLine)).toEqual({
      stored: [{ account: 'https://vpn.example.com ann@example.com', password: 'refresh-token-1' }],
      afterRestart: 'refresh-token-1',
      afterRotation: 'refresh-token-2',
      afterDelete: null,
      remaining: [],
    });
  });
});
