/**
 * The operator's brand for the desktop app, read at build time from `desktop/brand.json` (or the file
 * `DESKTOP_BRAND_FILE` names, e.g. in CI): the product name, app id, executable name, default server,
 * keychain service, icons and the publisher identities the installers are signed and published under.
 * `npm run build:desktop` inlines what the app needs into the main bundle (`__DESKTOP_BRAND__`) and writes
 * the electron-builder configuration for this brand (desktop/builder-config.ts); no code names a brand.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { normaliseServerUrl } from './main/server-url.js';
import type { AppBrand } from './main/app-identity.js';

export const DEFAULT_BRAND_FILE = 'desktop/brand.json';

const ServerUrl = z.string().transform((text, ctx) => {
  const result = normaliseServerUrl(text);
  if (result.ok) return result.serverUrl;
  ctx.addIssue({ code: 'custom', message: result.message });
  return z.NEVER;
});

const BrandFile = z.strictObject({
  /** Shown in the window title, menus, installers and the user-data folder's name. */
  productName: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[^<>:"/\\|?*\u0000-\u001f]+$/, 'a name without < > : " / \\ | ? * (it names folders)'),
  /** Reverse-DNS, e.g. com.example.vpn: the macOS bundle id, the Windows AppUserModelID. */
  appId: z.string().regex(/^[A-Za-z][\w-]*(\.[A-Za-z][\w-]*)+$/, 'reverse-DNS such as com.example.vpn'),
  /** The Linux executable and package name. */
  executableName: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes'),
  description: z.string().trim().min(1).max(300),
  /** The storefront the app signs in to until the user chooses another: its origin (https, or http on this machine). */
  serverUrl: ServerUrl,
  /** The OS keychain's service name for the refresh tokens; the app id when left out. */
  keychainService: z.string().trim().min(1).max(200).optional(),
  /** A folder with icon.png (1024×1024; electron-builder makes the .ico and .icns), or icon.ico / icon.icns beside it. */
  icons: z.string().min(1),
  publisher: z.strictObject({
    /** The company: installer vendor, copyright, MSIX display name. */
    name: z.string().trim().min(1).max(100),
    /** The Linux packages' maintainer address. */
    email: z.email(),
    /** The Windows code-signing certificate's subject (MSIX publisher), e.g. "CN=Example Ltd, O=Example Ltd, C=GB". */
    windowsCertificateSubject: z.string().regex(/^CN=[^,]+/, 'a certificate subject starting with CN='),
    /** The MSIX package identity from the Microsoft Partner Center. */
    msixIdentityName: z.string().regex(/^[A-Za-z0-9.-]{3,50}$/, '3 to 50 letters, digits, dots or dashes'),
  }),
});

export type DesktopBrand = Omit<z.infer<typeof BrandFile>, 'keychainService'> & {
  keychainService: string;
  /** `icons` resolved against the project root. */
  iconsDir: string;
};

/** The brand file at `file` (relative to `root`), checked; a clear error names the file and each wrong field. */
export function loadBrand(root: string, file: string = process.env.DESKTOP_BRAND_FILE || DEFAULT_BRAND_FILE): DesktopBrand {
  const path = isAbsolute(file) ? file : join(root, file);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`The desktop brand file ${path} could not be read: ${(error as Error).message}`, { cause: error });
  }
  const parsed = BrandFile.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(file)'}: ${issue.message}`).join('\n');
    throw new Error(`The desktop brand file ${path} is not valid:\n${problems}`);
  }
  const iconsDir = resolve(root, parsed.data.icons);
  if (!existsSync(join(iconsDir, 'icon.png'))) throw new Error(`The desktop brand file ${path}: icons: ${iconsDir} has no icon.png`);
  return { ...parsed.data, keychainService: parsed.data.keychainService ?? parsed.data.appId, iconsDir };
}

/** What the running app needs of the brand (inlined into the main bundle). */
export function appBrandOf(brand: DesktopBrand): AppBrand {
  return { productName: brand.productName, appId: brand.appId, keychainService: brand.keychainService, serverUrl: brand.serverUrl };
}
