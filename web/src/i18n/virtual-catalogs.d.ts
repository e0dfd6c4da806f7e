/** web/vite-plugin-catalogs.ts: per language (`'ru'`), a loader of its catalogue loaders by namespace (`'common'`). */
declare module 'virtual:catalogs' {
  type CatalogueLoader = () => Promise<{ default: import('@lingui/core').Messages }>;
  const loaders: Record<string, () => Promise<{ default: Record<string, CatalogueLoader> }>>;
  export default loaders;
}
