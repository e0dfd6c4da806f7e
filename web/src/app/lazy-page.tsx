import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A page in a chunk of its own: loaded when first shown, or ahead of time with `preload()`. */
export interface LazyPage<P extends object = object> {
  Component: LazyExoticComponent<ComponentType<P>>;
  preload(): Promise<unknown>;
}

export function lazyPage<P extends object = object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => (loading ??= load());
  return { Component: lazy(preload), preload };
}
