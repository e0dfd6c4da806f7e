import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

/** Message catalogues: web/src/i18n/messages/<locale>/<namespace>.json, ICU message strings by id. */
const MESSAGES_DIR = fileURLToPath(new URL('./src/i18n/messages', import.meta.url));
const LOADERS = 'virtual:catalogs';
const CATALOG = 'virtual:catalog/';

/** The catalogues on disk: `ru/common`, `en/pricing`, … */
function catalogueNames(): string[] {
  return readdirSync(MESSAGES_DIR).flatMap((locale) =>
    readdirSync(join(MESSAGES_DIR, locale))
      .filter((file) => file.endsWith('.json'))
      .map((file) => `${locale}/${file.slice(0, -'.json'.length)}`),
  );
}

/**
 * Compiles message catalogues at build time, so the browser gets Lingui's compiled messages and never
 * ships the ICU parser. `virtual:catalogs` exports `{ 'ru/common': () => import(…) }`, one chunk per
 * catalogue; each such module's default export is `{ id: compiled }`. A malformed message fails the
 * build, naming the file and the id. (Virtual modules rather than `.json` imports: Vite's own JSON
 * handling would take those first.)
 */
export function catalogs(): Plugin {
  return {
    name: 'vpn:catalogs',
    enforce: 'pre',
    resolveId(source) {
      if (source === LOADERS || source.startsWith(CATALOG)) return `\0${source}`;
      return null;
    },
    load(id) {
      if (id === `\0${LOADERS}`) {
        const entries = catalogueNames().map((name) => `  ${JSON.stringify(name)}: () => import(${JSON.stringify(`${CATALOG}${name}`)}),`);
        return `export default {\n${entries.join('\n')}\n};`;
      }
      if (!id.startsWith(`\0${CATALOG}`)) return null;
      const file = join(MESSAGES_DIR, `${id.slice(CATALOG.length + 1)}.json`);
      this.addWatchFile(file);
      const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages).map(([key, message]) => {
          try {
            return [key, compileMessageOrThrow(message)];
          } catch (error) {
            throw new Error(`${file}: message "${key}" is not valid ICU: ${(error as Error).message}`);
          }
        }),
      );
      return `export default ${JSON.stringify(compiled)};`;
    },
  };
}
