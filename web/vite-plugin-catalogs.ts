import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

/** Message catalogues: web/src/i18n/messages/<locale>/<namespace>.json, ICU message strings by id. */
const MESSAGES = fileURLToPath(new URL('./src/i18n/messages', import.meta.url));
const LOADERS = 'virtual:catalogs';
/** One language's loaders: `virtual:catalogs/ru`. */
const LOCALE_LOADERS = 'virtual:catalogs/';
const CATALOG = 'virtual:catalog/';
/** The language whose catalogue stands in for one a language lacks (shared/locales.ts DEFAULT_LOCALE). */
const FALLBACK_LOCALE = 'en';

/** The catalogues on disk: `ru/common`, `en/pricing`, … */
function catalogueNames(dir: string): string[] {
  return readdirSync(dir).flatMap((locale) =>
    readdirSync(join(dir, locale))
      .filter((file) => file.endsWith('.json'))
      .map((file) => `${locale}/${file.slice(0, -'.json'.length)}`),
  );
}

/**
 * Compiles message catalogues at build time, so the browser gets Lingui's compiled messages and never
 * ships the ICU parser. `virtual:catalogs` exports `{ ru: () => import('virtual:catalogs/ru') }`, and
 * `virtual:catalogs/ru` exports `{ common: () => import('virtual:catalog/ru/common'), … }` for every namespace
 * (the English catalogue where Russian lacks one), one chunk per catalogue; each such module's default export is
 * `{ id: compiled }`. A page thus carries the file names of its own language's catalogues only, not those of every
 * language (about 0.5 KB gzip of the landing page's scripts); another language's table is one more small chunk,
 * loaded when something asks for that language. A malformed message fails the build, naming the file and the id.
 * (Virtual modules rather than `.json` imports: Vite's own JSON handling would take those first.)
 */
/** `messagesDir`: where the catalogues are (web/src/i18n/messages unless a test says otherwise). */
export function catalogs(messagesDir = MESSAGES): Plugin {
  return {
    name: 'vpn:catalogs',
    enforce: 'pre',
    resolveId(source) {
      if (source === LOADERS || source.startsWith(LOCALE_LOADERS) || source.startsWith(CATALOG)) return `\0${source}`;
      return null;
    },
    load(id) {
      if (id === `\0${LOADERS}`) {
        const entries = readdirSync(messagesDir).map((locale) => `  ${JSON.stringify(locale)}: () => import(${JSON.stringify(`${LOCALE_LOADERS}${locale}`)}),`);
        return `export default {\n${entries.join('\n')}\n};`;
      }
      if (id.startsWith(`\0${LOCALE_LOADERS}`)) {
        const locale = id.slice(LOCALE_LOADERS.length + 1);
        const names = new Set(catalogueNames(messagesDir));
        const namespaces = new Set([...names].map((name) => name.slice(name.indexOf('/') + 1)));
        const entries = [...namespaces].sort().map((namespace) => {
          const name = names.has(`${locale}/${namespace}`) ? `${locale}/${namespace}` : `${FALLBACK_LOCALE}/${namespace}`;
          return `  ${JSON.stringify(namespace)}: () => import(${JSON.stringify(`${CATALOG}${name}`)}),`;
        });
        return `export default {\n${entries.join('\n')}\n};`;
      }
      if (!id.startsWith(`\0${CATALOG}`)) return null;
      const file = join(messagesDir, `${id.slice(CATALOG.length + 1)}.json`);
      this.addWatchFile(file);
      const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages).map(([key, message]) => {
          try {
            return [key, compileMessageOrThrow(message)];
          } catch (error) {
            throw new Error(`${file}: message "${key}" is not valid ICU: ${(error as Error).message}`, { cause: error });
          }
        }),
      );
      return `export default ${JSON.stringify(compiled)};`;
    },
  };
}
