/**
 * The electron-builder configuration of one brand: `electron-builder.yml` holds what every brand shares
 * (targets, files, packaging rules), desktop/brand.json what differs. `npm run build:desktop` writes the
 * merge to `out/electron-builder.json`; installers are made from it:
 *
 *   npx electron-builder --config out/electron-builder.json --publish never   (--win, --mac or --linux)
 */
import { join, relative } from 'node:path';
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import type { DesktopBrand } from './brand.js';

export const BUILDER_BASE_FILE = 'electron-builder.yml';
export const BUILDER_CONFIG_FILE = 'electron-builder.json';

type Config = Record<string, unknown>;

/**
 * Windows signing through Azure Trusted Signing, when the release machine has its account (see the workflow): the
 * publisher name is the certificate's CN, which the brand's certificate subject starts with.
 */
function azureSignOptions(env: NodeJS.ProcessEnv, certificateSubject: string): Config | undefined {
  const { AZURE_SIGNING_ENDPOINT: endpoint, AZURE_SIGNING_ACCOUNT: codeSigningAccountName, AZURE_SIGNING_PROFILE: certificateProfileName } = env;
  const publisherName = /^CN=([^,]+)/.exec(certificateSubject)?.[1]?.trim();
  return endpoint && codeSigningAccountName && certificateProfileName && publisherName
    ? { endpoint, codeSigningAccountName, certificateProfileName, publisherName }
    : undefined;
}

/** The MSIX application id: letters and digits of the product name, starting with a letter. */
function msixApplicationId(productName: string): string {
  const id = productName.replace(/[^A-Za-z0-9]/g, '');
  return /^[A-Za-z]/.test(id) ? id : `App${id}`;
}

/**
 * `base` (electron-builder.yml) with the brand's names, ids, icons and publisher, the app built into
 * `outDir` (relative to `root`), and the update feed of the brand's server (`/desktop/updates/stable/`: what
 * electron-builder writes into the app's app-update.yml; the app itself asks the server the user chose).
 */
export function builderConfigFor(brand: DesktopBrand, base: Config, opts: { root: string; outDir: string; env?: NodeJS.ProcessEnv }): Config {
  const env = opts.env ?? process.env;
  const out = relative(opts.root, opts.outDir).split('\\').join('/') || '.';
  const section = (name: string): Config => ({ ...((base[name] as Config | undefined) ?? {}) });
  const azure = azureSignOptions(env, brand.publisher.windowsCertificateSubject);
  return {
    ...base,
    appId: brand.appId,
    productName: brand.productName,
    copyright: `Copyright © ${brand.publisher.name}`,
    directories: { ...section('directories'), buildResources: relative(opts.root, brand.iconsDir).split('\\').join('/') },
    files: [
      `${out}/**/*`,
      'package.json',
      `!${out}/**/*.map`,
      `!${out}/${BUILDER_CONFIG_FILE}`,
      ...((base.files as string[] | undefined) ?? []).filter((f) => !/^!?out\//.test(f) && f !== 'package.json'),
    ],
    extraMetadata: { ...section('extraMetadata'), main: `${out}/main/index.js`, productName: brand.productName, description: brand.description },
    publish: [{ provider: 'generic', url: `${brand.serverUrl}/desktop/updates/stable/`, channel: 'latest' }],
    win: { ...section('win'), ...(azure ? { azureSignOptions: azure } : {}) },
    appx: {
      ...section('appx'),
      applicationId: msixApplicationId(brand.productName),
      identityName: brand.publisher.msixIdentityName,
      publisher: brand.publisher.windowsCertificateSubject,
      publisherDisplayName: brand.publisher.name,
      displayName: brand.productName,
    },
    linux: {
      ...section('linux'),
      executableName: brand.executableName,
      maintainer: `${brand.publisher.name} <${brand.publisher.email}>`,
      vendor: brand.publisher.name,
      synopsis: `${brand.productName} desktop app`,
      description: brand.description,
    },
  };
}

/** electron-builder.yml, read. */
export function readBuilderBase(path: string): Config {
  const parsed = load(readFileSync(path, 'utf8'));
  if (!parsed || typeof parsed !== 'object') throw new Error(`${path} is not an electron-builder configuration`);
  return parsed as Config;
}

/**
 * The packaged app's executable that electron-builder leaves in its output folder for `platform` (the
 * unpacked app, as installed): what the release workflow's smoke test starts (ELECTRON_PATH).
 */
export function packagedAppPath(config: Config, platform: NodeJS.Platform): string {
  const output = ((config.directories as Config | undefined)?.output as string | undefined) ?? 'dist';
  const productName = config.productName as string;
  if (platform === 'win32') return join(output, 'win-unpacked', `${productName}.exe`);
  if (platform === 'darwin') return join(output, 'mac-universal', `${productName}.app`, 'Contents', 'MacOS', productName);
  return join(output, 'linux-unpacked', ((config.linux as Config | undefined)?.executableName as string | undefined) ?? productName);
}
