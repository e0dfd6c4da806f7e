import type { Plugin } from 'vite';

/** The module Vite wraps every dynamic `import()` of a client build in (`__vitePreload(() => import(…), deps)`). */
const PRELOAD_HELPER = '\0vite/preload-helper.js';

/**
 * With `build.modulePreload: false` the only dependencies Vite hands its preload helper are stylesheets (the admin
 * page's); its helper still carries the code for script preloads, CSP nonces and an error event nothing here
 * listens to: about 0.5 KB gzip of every page's first scripts. This one links a chunk's stylesheets once and
 * waits for them before the chunk runs (a stylesheet that fails to load fails the import, as Vite's does).
 * `base`: where the build is served from, which the dependencies' paths are relative to.
 */
const helperCode = (base: string) => `
const base = ${JSON.stringify(base)};
const seen = {};
function stylesheet(href) {
  if (document.querySelector('link[rel="stylesheet"][href="' + href + '"]')) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = resolve;
    link.onerror = () => {
      delete seen[href];
      link.remove();
      reject(new Error('Unable to preload CSS for ' + href));
    };
    document.head.append(link);
  });
}
export function __vitePreload(load, deps) {
  const sheets = (deps || []).filter((dep) => dep.endsWith('.css')).map((dep) => (seen[base + dep] ||= stylesheet(base + dep)));
  return sheets.length ? Promise.all(sheets).then(() => load()) : load();
}
`;

export function cssPreload(): Plugin {
  let base = '/';
  return {
    name: 'vpn:css-preload',
    enforce: 'pre',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    resolveId(source) {
      return source === PRELOAD_HELPER ? source : null;
    },
    load(id) {
      return id === PRELOAD_HELPER ? helperCode(base) : null;
    },
  };
}
