import { lazy, useState, type ComponentType, type ReactNode } from 'react';
import type { Locale } from '../../../shared/locales.js';
import { Catalogs } from '../i18n/locale-context';
import { loadCatalogs, type Namespace } from '../i18n/catalogs';

/** A page in a chunk of its own, with the message catalogues it shows: loaded when first shown, or ahead of time with `preload()`. */
export interface LazyPage<P extends object = object> {
  /** The page's source file, relative to web/ (`src/pages/LandingPage.tsx`): its key in the build manifest. */
  module: string;
  namespaces: readonly Namespace[];
  /** The page's chunk and its catalogues in `locale`. */
  preload(locale: Locale): Promise<unknown>;
  /** The page, shown once its chunk and catalogues are in. */
  render(props: P): ReactNode;
}

export function lazyPage<P extends object = object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  namespaces: readonly Namespace[],
  module: string,
): LazyPage<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  /** The page's component once its chunk is in: drawn directly, without suspending. */
  let loaded: ComponentType<P> | undefined;
  const loadModule = () =>
    (loading ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = undefined; // the next try fetches the chunk again
        throw error;
      },
    ));
  const Lazy = lazy(loadModule);

  /**
   * A page preloaded before the first render (a hydrated page, the server's render) is drawn at once;
   * otherwise it suspends until its chunk is in. Chosen once per mount, so the page never remounts.
   */
  function Page(props: P) {
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }

  return {
    module,
    namespaces,
    preload: (locale) => Promise.all([loadModule(), loadCatalogs(locale, namespaces)]),
    render: (props) => (
      <Catalogs namespaces={namespaces}>
        <Page {...props} />
      </Catalogs>
    ),
  };
}
