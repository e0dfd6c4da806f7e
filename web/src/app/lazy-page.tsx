import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import type { Locale } from '../../../shared/locales.js';
import { Catalogs } from '../i18n/locale-context';
import { loadCatalogs, type Namespace } from '../i18n/catalogs';

/** A page in a chunk of its own, with the message catalogues it shows: loaded when first shown, or ahead of time with `preload()`. */
export interface LazyPage<P extends object = object> {
  Component: LazyExoticComponent<ComponentType<P>>;
  namespaces: readonly Namespace[];
  /** The page's chunk and its catalogues in `locale`. */
  preload(locale: Locale): Promise<unknown>;
  /** The page, shown once its catalogues are in. */
  render(props: P): ReactNode;
}

export function lazyPage<P extends object = object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  namespaces: readonly Namespace[] = [],
): LazyPage<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const loadModule = () => (loading ??= load());
  const Component = lazy(loadModule);
  return {
    Component,
    namespaces,
    preload: (locale) => Promise.all([loadModule(), loadCatalogs(locale, namespaces)]),
    render: (props) => (
      <Catalogs namespaces={namespaces}>
        <Component {...(props as P & React.JSX.IntrinsicAttributes)} />
      </Catalogs>
    ),
  };
}
