import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBrand } from './brand.js';
import { BUILDER_BASE_FILE, builderConfigFor, packagedAppPath, readBuilderBase } from './builder-config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** electron-builder's own check of a configuration against its schema (what it runs before packaging). */
const require = createRequire(import.meta.url);
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration(config: object, logger: object): Promise<void> };
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => object };
const validByElectronBuilder = (config: object) => validateConfiguration(config, new DebugLogger(false));
const DEFAULT_BRAND = JSON.parse(readFileSync(join(ROOT, 'desktop/brand.json'), 'utf8')) as Record<string, unknown>;
const temp: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'brand-'));
  temp.push(dir);
  return dir;
};
afterAll(() => temp.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A brand file in a temporary folder (with its own icons), from the default one with `changes`. */
function brandFile(changes: Record<string, unknown>): { file: string; iconsDir: string } {
  const dir = tempDir();
  const iconsDir = join(dir, 'icons');
  mkdirSync(iconsDir);
  copyFileSync(join(ROOT, 'desktop/build/icon.png'), join(iconsDir, 'icon.png'));
  const file = join(dir, 'brand.json');
  writeFileSync(file, JSON.stringify({ ...DEFAULT_BRAND, icons: iconsDir, ...changes }));
  return { file, iconsDir };
}

const ACME = {
  productName: 'Acme VPN',
  appId: 'com.acme.vpn',
  executableName: 'acme-vpn',
  serverUrl: 'https://vpn.acme.example/',
  keychainService: 'com.acme.vpn.sessions',
  publisher: { name: 'Acme Ltd', email: 'it@acme.example', windowsCertificateSubject: 'CN=Acme Ltd, O=Acme Ltd, C=GB', msixIdentityName: 'AcmeLtd.AcmeVPN' },
};

describe('the desktop brand', () => {
  it("is today's Lumen VPN by default", () => {
    const brand = loadBrand(ROOT, 'desktop/brand.json');
    expect(brand).toMatchObject({
      productName: 'Lumen VPN',
      appId: 'com.lumenvpn.desktop',
      serverUrl: 'https://vpn.example.com',
      keychainService: 'com.lumenvpn.desktop',
    });
    expect(brand.iconsDir).toBe(join(ROOT, 'desktop/build'));
  });

  it('names every wrong field of a brand file, with its file', () => {
    const { file } = brandFile({
      appId: 'acme',
      serverUrl: 'http://vpn.acme.example',
      productName: 'A/B',
      publisher: { ...ACME.publisher, email: 'nope' },
      extra: 1,
    });
    let message = '';
    try {
      loadBrand(ROOT, file);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(file);
    for (const field of ['appId', 'serverUrl', 'productName', 'publisher.email']) expect(message).toMatch(new RegExp(`\\n  ${field.replace('.', '\\.')}: `));
    expect(message).toContain('Use https:// (http:// is only allowed for localhost).');
    expect(message).toMatch(/extra/);
  });

  it('refuses icons without an icon.png, and a file that is not JSON', () => {
    expect(() => loadBrand(ROOT, brandFile({ icons: tempDir() }).file)).toThrow(/has no icon\.png/);
    const notJson = join(tempDir(), 'brand.json');
    writeFileSync(notJson, '{ productName: ');
    expect(() => loadBrand(ROOT, notJson)).toThrow(/could not be read/);
  });

  it("gives electron-builder the brand's names, ids, icons, publisher and update feed, over what every brand shares (valid by its schema)", async () => {
    const { file, iconsDir } = brandFile(ACME);
    const brand = loadBrand(ROOT, file);
    const config = builderConfigFor(brand, readBuilderBase(join(ROOT, BUILDER_BASE_FILE)), { root: ROOT, outDir: join(ROOT, 'out'), env: {} });
    expect(config).toMatchObject({
      appId: 'com.acme.vpn',
      productName: 'Acme VPN',
      copyright: 'Copyright © Acme Ltd',
      directories: { output: 'release', buildResources: relative(ROOT, iconsDir).split('\\').join('/') },
      extraMetadata: { main: 'out/main/index.js', productName: 'Acme VPN' },
      publish: [{ provider: 'generic', url: 'https://vpn.acme.example/desktop/updates/stable/', channel: 'latest' }],
      appx: {
        applicationId: 'AcmeVPN',
        identityName: 'AcmeLtd.AcmeVPN',
        publisher: 'CN=Acme Ltd, O=Acme Ltd, C=GB',
        publisherDisplayName: 'Acme Ltd',
        displayName: 'Acme VPN',
      },
      linux: { executableName: 'acme-vpn', maintainer: 'Acme Ltd <it@acme.example>', vendor: 'Acme Ltd', target: ['AppImage', 'deb', 'rpm'] },
      win: { target: ['nsis', 'appx'] },
      mac: {
        target: [
          { target: 'dmg', arch: 'universal' },
          { target: 'zip', arch: 'universal' },
        ],
      },
      npmRebuild: false,
    });
    expect(config.files).toEqual(expect.arrayContaining(['out/**/*', 'package.json', '!node_modules/!(@napi-rs){,/**/*}']));
    expect((config.win as Record<string, unknown>).azureSignOptions).toBeUndefined();
    const azure = builderConfigFor(brand, readBuilderBase(join(ROOT, BUILDER_BASE_FILE)), {
      root: ROOT,
      outDir: join(ROOT, 'out'),
      env: { AZURE_SIGNING_ENDPOINT: 'https://weu.codesigning.azure.net', AZURE_SIGNING_ACCOUNT: 'acme', AZURE_SIGNING_PROFILE: 'public' },
    });
    expect((azure.win as Record<string, unknown>).azureSignOptions).toEqual({
      endpoint: 'https://weu.codesigning.azure.net',
      codeSigningAccountName: 'acme',
      certificateProfileName: 'public',
      publisherName: 'Acme Ltd',
    });
    await validByElectronBuilder(config);
    await validByElectronBuilder(azure);
    await expect(validByElectronBuilder({ ...config, appx: { ...(config.appx as object), publisherName: 'x' } })).rejects.toThrow(
      /configuration\.appx should be/,
    );
    expect(packagedAppPath(config, 'linux')).toBe(join('release', 'linux-unpacked', 'acme-vpn'));
    expect(packagedAppPath(config, 'win32')).toBe(join('release', 'win-unpacked', 'Acme VPN.exe'));
    expect(packagedAppPath(config, 'darwin')).toBe(join('release', 'mac-universal', 'Acme VPN.app', 'Contents', 'MacOS', 'Acme VPN'));
  });

  it('a build with another brand file is another app: name, app id, keychain service and server in main, the builder configuration beside it', async () => {
    const { file, iconsDir } = brandFile(ACME);
    const outDir = join(tempDir(), 'out');
    await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
      cwd: ROOT,
      env: { ...process.env, DESKTOP_BRAND_FILE: file, DESKTOP_OUT_DIR: outDir },
    });
    const main = readFileSync(join(outDir, 'main/index.js'), 'utf8');
    for (const text of ['"Acme VPN"', '"com.acme.vpn"', '"com.acme.vpn.sessions"', '"https://vpn.acme.example"']) expect(main).toContain(text);
    expect(main).not.toContain('lumenvpn');
    expect(readFileSync(join(outDir, 'renderer/index.html'), 'utf8')).toContain('<title>Acme VPN</title>');
    const config = JSON.parse(readFileSync(join(outDir, 'electron-builder.json'), 'utf8')) as Record<string, Record<string, unknown>>;
    const out = relative(ROOT, outDir).split('\\').join('/');
    expect(config).toMatchObject({
      appId: 'com.acme.vpn',
      productName: 'Acme VPN',
      directories: { buildResources: relative(ROOT, iconsDir).split('\\').join('/') },
    });
    expect(config.extraMetadata!.main).toBe(`${out}/main/index.js`);
    expect(config.files).toEqual(expect.arrayContaining([`${out}/**/*`, `!${out}/**/*.map`]));
  }, 180_000);
});
