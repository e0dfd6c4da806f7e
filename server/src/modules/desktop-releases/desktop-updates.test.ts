import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemStatus } from '../../../../shared/accounts.js';
import type { DesktopReleasesResponse } from '../../../../shared/desktop-releases.js';
import { publishDesktopRelease } from '../../../../scripts/publish-desktop-release.js';
import { writeRelease } from '../../../test/desktop-release-fixture.js';
import { createReleaseFeeds } from './release-feeds.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { bearer, buildTestApp, signInDesktop, type TestApp } from '../../../test/test-app.js';

/**
 * The desktop app's update folder (issue 28): what the operator published is served from DESKTOP_UPDATES_DIR
 * at /desktop/updates/<channel>/ as electron-updater's generic provider reads it, and described at
 * /api/desktop/releases for the download pages and in the admin's System tab.
 */
describe('the desktop update folder', () => {
  const env = useTestEnvironment('sqlite');
  let t: TestApp;
  let dir: string;
  let artifacts: string;
  let release: ReturnType<typeof writeRelease>;
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const releases = async () => (await get('/api/desktop/releases')).json() as DesktopReleasesResponse;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'desktop-updates-'));
    artifacts = mkdtempSync(join(tmpdir(), 'desktop-artifacts-'));
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { DESKTOP_UPDATES_DIR: dir, ADMIN_EMAILS: 'admin@example.com' } });
  });
  afterAll(async () => {
    await t.app.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(artifacts, { recursive: true, force: true });
  });

  it('answers that nothing is published before a release is, and 404 for its feeds', async () => {
    expect(await releases()).toEqual({ channels: { stable: {}, beta: {} } });
    expect((await get('/desktop/updates/stable/latest.yml')).statusCode).toBe(404);
  });

  it('serves what was published: feeds as YAML no cache keeps, installers cached long and in ranges', async () => {
    release = writeRelease(artifacts, '1.2.0');
    await publishDesktopRelease({ from: artifacts, to: dir, channel: 'stable' });

    for (const feed of ['latest.yml', 'latest-mac.yml', 'latest-linux.yml']) {
      const res = await get(`/desktop/updates/stable/${feed}`);
      expect(res.statusCode, feed).toBe(200);
      expect(res.headers['content-type']).toBe('text/yaml; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('version: 1.2.0');
    }

    const installer = release.windows.files[0]!;
    const url = `/desktop/updates/stable/${encodeURIComponent(installer.name)}`;
    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(installer.bytes)).toBe(true);

    const part = await get(url, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${installer.bytes.length}`);
    expect(part.rawPayload.equals(installer.bytes.subarray(100, 200))).toBe(true);
    expect((await get(url, { range: `bytes=${installer.bytes.length + 10}-` })).statusCode).toBe(416);
  });

  it.each([
    ['a path out of the folder', '/desktop/updates/stable/..%2f..%2fetc%2fpasswd'],
    ['a path out of the folder, plainly', '/desktop/updates/../../package.json'],
    ['a channel that does not exist', '/desktop/updates/nightly/latest.yml'],
    ['the folder itself', '/desktop/updates/stable/'],
    ['a hidden file', '/desktop/updates/stable/.secret'],
    ['a file deeper down', '/desktop/updates/stable/sub/latest.yml'],
  ])('refuses %s', async (_what, url) => {
    writeFileSync(join(dir, 'stable', '.secret'), 'TOP-SECRET-VALUE');
    const res = await get(url);
    expect([403, 404]).toContain(res.statusCode);
    expect(res.body).not.toContain('TOP-SECRET-VALUE');
    expect(res.body).not.toContain('"version"');
  });

  it('serves regular files only: a symbolic link in the folder (to a file or a folder outside it) is a 404', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'desktop-outside-'));
    try {
      writeFileSync(join(outside, 'secret.exe'), 'TOP-SECRET-VALUE');
      mkdirSync(join(outside, 'stable'));
      writeFileSync(join(outside, 'stable', 'latest.yml'), 'TOP-SECRET-VALUE');
      symlinkSync(join(outside, 'secret.exe'), join(dir, 'stable', 'Lumen VPN 9.9.9 Setup.exe'));
      symlinkSync(join(outside, 'stable'), join(dir, 'stable', 'linked'));
      for (const url of [
        `/desktop/updates/stable/${encodeURIComponent('Lumen VPN 9.9.9 Setup.exe')}`,
        '/desktop/updates/stable/linked/latest.yml',
        '/desktop/updates/stable/linked',
      ]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.body).not.toContain('TOP-SECRET-VALUE');
      }
      // A channel folder that is itself a link out of the folder.
      const linkedChannel = mkdtempSync(join(tmpdir(), 'desktop-updates-'));
      symlinkSync(join(outside, 'stable'), join(linkedChannel, 'stable'));
      const app = await buildTestApp({ db: env.database.db, env: { DESKTOP_UPDATES_DIR: linkedChannel } });
      try {
        const res = await app.app.inject({ method: 'GET', url: '/desktop/updates/stable/latest.yml' });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('TOP-SECRET-VALUE');
      } finally {
        await app.app.close();
        rmSync(linkedChannel, { recursive: true, force: true });
      }
    } finally {
      rmSync(join(dir, 'stable', 'Lumen VPN 9.9.9 Setup.exe'), { force: true });
      rmSync(join(dir, 'stable', 'linked'), { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('describes the release per platform: version, the installers people run (first the one to offer), size and SHA-256', async () => {
    // Installers of other versions left in the folder are not this release's.
    for (const old of ['Lumen VPN 1.1.0.appx', 'Lumen VPN 11.2.0.appx', 'lumen-vpn_1.2.0-beta.3_amd64.deb']) writeFileSync(join(dir, 'stable', old), 'old');
    // The feeds are looked at again every 2 s: the first answer came before the release was published.
    await expect.poll(async () => (await releases()).channels.stable.windows?.version, { timeout: 5_000 }).toBe('1.2.0');
    const { stable, beta } = (await releases()).channels;
    expect(beta).toEqual({});
    const shown = (files: Array<{ name: string; bytes: Buffer; sha256: string }>) =>
      files.map((f) => ({
        name: f.name,
        kind: f.name.slice(f.name.lastIndexOf('.') + 1),
        url: `/desktop/updates/stable/${encodeURIComponent(f.name)}`,
        size: f.bytes.length,
        sha256: f.sha256,
      }));
    expect(stable.windows).toEqual({
      version: '1.2.0',
      releaseDate: '2026-11-20T10:00:00.000Z',
      installers: shown([release.windows.files[0]!, release.windows.beside[0]!]),
    });
    // The zip is for the updater, not for people.
    expect(stable.macos?.installers).toEqual(shown([release.macos.files[1]!]));
    expect(stable.linux?.installers).toEqual(shown([release.linux.files[0]!, release.linux.beside[0]!]));
  });

  it('shows a newer release as soon as it is published, and each channel on its own', async () => {
    const next = mkdtempSync(join(tmpdir(), 'desktop-artifacts-'));
    try {
      writeRelease(next, '1.3.0-beta.1', ['windows']);
      await publishDesktopRelease({ from: next, to: dir, channel: 'beta' });
      await expect.poll(async () => (await releases()).channels.beta.windows?.version, { timeout: 5_000 }).toBe('1.3.0-beta.1');
      const { stable, beta } = (await releases()).channels;
      expect(stable.windows?.version).toBe('1.2.0');
      expect(beta).toEqual({ windows: expect.objectContaining({ version: '1.3.0-beta.1' }) });
    } finally {
      rmSync(next, { recursive: true, force: true });
    }
  });

  it('shows the published versions in the admin System tab', async () => {
    const admin = await signInDesktop(t, env.smtp, 'admin@example.com');
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/system', headers: bearer(admin.accessToken) });
    expect(res.statusCode).toBe(200);
    expect((res.json() as SystemStatus).desktopApp).toEqual({
      stable: { windows: '1.2.0', macos: '1.2.0', linux: '1.2.0' },
      beta: { windows: '1.3.0-beta.1', macos: null, linux: null },
    });
  });

  it('starts with a relative folder, as DATA_DIR is by default (./data)', async () => {
    const relativeDir = join(relative(process.cwd(), dir), 'elsewhere');
    const app = await buildTestApp({ db: env.database.db, env: { DESKTOP_UPDATES_DIR: relativeDir } });
    try {
      expect((await app.app.inject({ method: 'GET', url: '/desktop/updates/stable/latest.yml' })).statusCode).toBe(404);
    } finally {
      await app.app.close();
    }
  });

  it('leaves out a platform whose feed cannot be read, and says why', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'desktop-updates-'));
    const app = await buildTestApp({ db: env.database.db, env: { DESKTOP_UPDATES_DIR: broken } });
    try {
      writeRelease(join(broken, 'stable'), '2.0.0');
      writeFileSync(join(broken, 'stable', 'latest-mac.yml'), 'version: [not, a, version]\n');
      const { stable } = ((await app.app.inject({ method: 'GET', url: '/api/desktop/releases' })).json() as DesktopReleasesResponse).channels;
      expect(Object.keys(stable).sort()).toEqual(['linux', 'windows']);
      const warnings: string[] = [];
      await createReleaseFeeds({ dir: broken, warn: (message) => warnings.push(message) }).list();
      expect(warnings).toEqual([expect.stringMatching(/^desktop updates: stable\/latest-mac\.yml cannot be read/)]);
    } finally {
      await app.app.close();
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
