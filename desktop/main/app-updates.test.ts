import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configureRequestOptions, configureRequestUrl, HttpExecutor, type DownloadOptions } from 'builder-util-runtime';
import { DebUpdater } from 'electron-updater';
import type { AppAdapter } from 'electron-updater/out/AppAdapter.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { feedText, writeRelease } from '../../server/test/desktop-release-fixture.js';
import { useTestEnvironment } from '../../server/test/environment.js';
import { buildTestApp, type TestApp } from '../../server/test/test-app.js';
import { channelOfVersion, createAppUpdates, UPDATE_CHECK_INTERVAL_MS, updateFeedUrl, type Updater } from './app-updates.js';

/** electron-updater's HTTP over Node's own (in the app, ElectronHttpExecutor does the same through Electron's `net`). */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback);
  }

  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise<string>((resolve, reject, onCancel) => {
      const requestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        { destination, options, onCancel, callback: (error) => (error ? reject(error) : resolve(destination)), responseHandler: null },
        0,
      );
    });
  }
}

/** What Electron's `app` tells electron-updater, for an installed app of `version` with its data in `dir`. */
function appAdapter(version: string, dir: string): AppAdapter {
  writeFileSync(join(dir, 'app-update.yml'), 'provider: generic\nurl: http://127.0.0.1/\nupdaterCacheDirName: lumen-vpn-updater\n');
  return {
    version,
    name: 'Lumen VPN',
    isPackaged: true,
    appUpdateConfigPath: join(dir, 'app-update.yml'),
    userDataPath: dir,
    baseCachePath: join(dir, 'cache'),
    whenReady: async () => {},
    relaunch: () => {},
    quit: () => {},
    onQuit: () => {},
  };
}

describe('the app updates itself from the storefront (the real electron-updater against the real update folder)', () => {
  const env = useTestEnvironment('sqlite');
  let t: TestApp;
  let serverUrl: string;
  let updatesDir: string;
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'app-updates-'));
    dirs.push(dir);
    return dir;
  };
  let installer: { name: string; bytes: Buffer };

  beforeAll(async () => {
    updatesDir = tempDir();
    t = await buildTestApp({ db: env.database.db, env: { DESKTOP_UPDATES_DIR: updatesDir } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    serverUrl = `http://127.0.0.1:${address.port}`;
    // 1.3.0 on the stable channel; the Linux feed names the AppImage and the deb (what the deb updater installs).
    const release = writeRelease(join(updatesDir, 'stable'), '1.3.0', ['linux']);
    installer = { name: release.linux.beside[0]!.name, bytes: release.linux.beside[0]!.bytes };
    writeFileSync(join(updatesDir, 'stable', 'latest-linux.yml'), feedText('1.3.0', [...release.linux.files, release.linux.beside[0]!]));
  });
  afterAll(async () => {
    await t.app.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  function installedApp(version: string) {
    const dir = tempDir();
    const updater = new DebUpdater(null, appAdapter(version, dir));
    (updater as unknown as { httpExecutor: HttpExecutor<ClientRequest> }).httpExecutor = new NodeHttpExecutor();
    updater.logger = null;
    const notifyReady = vi.fn();
    const log = vi.fn();
    const updates = createAppUpdates({ updater: updater, serverUrl: async () => serverUrl, channel: 'stable', notifyReady, log });
    return { updates, notifyReady, log, dir, updater };
  }

  it('downloads a newer version in the background, checks it, and offers "Restart to update"', async () => {
    const { updates, notifyReady, log, dir } = installedApp('1.2.0');
    await updates.check();
    expect(log).not.toHaveBeenCalled();
    expect(notifyReady).toHaveBeenCalledExactlyOnceWith('1.3.0');
    expect(await updates.getStatus()).toEqual({ ready: true, version: '1.3.0' });
    const downloaded = join(dir, 'cache', 'lumen-vpn-updater', 'pending', installer.name);
    expect(existsSync(downloaded) && readFileSync(downloaded).equals(installer.bytes)).toBe(true);
  });

  it.each([
    ['the same version', '1.3.0'],
    ['a newer version', '1.4.0'],
  ])('does nothing when the app is %s', async (_what, version) => {
    const { updates, notifyReady, log } = installedApp(version);
    await updates.check();
    expect(log).not.toHaveBeenCalled();
    expect(notifyReady).not.toHaveBeenCalled();
    expect(await updates.getStatus()).toEqual({ ready: false });
    expect(await updates.restartToUpdate()).toEqual({ restarting: false });
  });

  it('refuses a download that is not what the feed says, and offers nothing', async () => {
    const tampered = tempDir();
    const release = writeRelease(join(tampered, 'stable'), '1.5.0', ['linux']);
    const deb = release.linux.beside[0]!;
    writeFileSync(
      join(tampered, 'stable', 'latest-linux.yml'),
      feedText('1.5.0', [...release.linux.files, { ...deb, sha512: release.linux.files[0]!.sha512 }]),
    );
    const { updates, notifyReady, log } = installedApp('1.2.0');
    const other = await buildTestApp({ db: env.database.db, env: { DESKTOP_UPDATES_DIR: tampered } });
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const before = serverUrl;
    serverUrl = `http://127.0.0.1:${(other.app.server.address() as { port: number }).port}`;
    try {
      await updates.check();
      expect(notifyReady).not.toHaveBeenCalled();
      expect(log).toHaveBeenCalledWith(
        'the update could not be checked or downloaded',
        expect.objectContaining({ message: expect.stringMatching(/sha512 checksum mismatch/) }),
      );
      expect(await updates.getStatus()).toEqual({ ready: false });
    } finally {
      serverUrl = before;
      await other.app.close();
    }
  });
});

describe('the app updates wiring', () => {
  function fakeUpdater() {
    const listeners = new Map<string, (arg: unknown) => void>();
    return {
      autoDownload: false,
      autoInstallOnAppQuit: false,
      feeds: [] as unknown[],
      checks: 0,
      installs: [] as unknown[][],
      failNext: false,
      on(event: string, listener: (arg: unknown) => void) {
        listeners.set(event, listener);
        return this;
      },
      emit: (event: string, arg: unknown) => listeners.get(event)?.(arg),
      setFeedURL(options: unknown) {
        this.feeds.push(options);
      },
      async checkForUpdates() {
        this.checks += 1;
        if (this.failNext) throw new Error('server down');
        return null;
      },
      quitAndInstall(...args: unknown[]) {
        this.installs.push(args);
      },
    };
  }

  it('asks the server the app talks to now, at start and every few hours, and never throws when it cannot', async () => {
    const updater = fakeUpdater();
    let server = 'https://vpn.example.com';
    const timers: number[] = [];
    const log = vi.fn();
    const updates = createAppUpdates({
      updater: updater as unknown as Updater,
      serverUrl: async () => server,
      channel: 'beta',
      notifyReady: () => {},
      log,
      setInterval: (_run, ms) => {
        timers.push(ms);
        return {};
      },
    });
    expect([updater.autoDownload, updater.autoInstallOnAppQuit]).toEqual([true, true]);
    updates.start();
    await vi.waitFor(() => expect(updater.checks).toBe(1));
    expect(timers).toEqual([UPDATE_CHECK_INTERVAL_MS]);
    server = 'https://other.example.net';
    updater.failNext = true;
    await updates.check();
    expect(updater.feeds).toEqual([
      { provider: 'generic', url: 'https://vpn.example.com/desktop/updates/beta/' },
      { provider: 'generic', url: 'https://other.example.net/desktop/updates/beta/' },
    ]);
    expect(log).toHaveBeenCalledWith('the update could not be checked or downloaded', expect.any(Error));
  });

  it('restarts into the update only when the user asks, once one is downloaded', async () => {
    const updater = fakeUpdater();
    const notifyReady = vi.fn();
    const updates = createAppUpdates({
      updater: updater as unknown as Updater,
      serverUrl: async () => 'https://vpn.example.com',
      channel: 'stable',
      notifyReady,
      log: () => {},
    });
    expect(await updates.restartToUpdate()).toEqual({ restarting: false });
    updater.emit('update-downloaded', { version: '2.0.0' });
    expect(notifyReady).toHaveBeenCalledWith('2.0.0');
    expect(updater.installs).toEqual([]);
    expect(await updates.restartToUpdate()).toEqual({ restarting: true });
    expect(updater.installs).toEqual([[false, true]]);
    // With an update waiting, nothing more is asked.
    await updates.check();
    expect(updater.checks).toBe(0);
  });

  it('follows the beta channel on a prerelease and the stable one otherwise', () => {
    expect(channelOfVersion('1.2.0')).toBe('stable');
    expect(channelOfVersion('1.3.0-beta.1')).toBe('beta');
    expect(updateFeedUrl('https://vpn.example.com', 'stable')).toBe('https://vpn.example.com/desktop/updates/stable/');
  });
});
