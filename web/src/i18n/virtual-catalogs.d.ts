/** web/vite-plugin-catalogs.ts: a loader per catalogue (`'ru/common'`), each resolving to its compiled messages. */
declare module 'virtual:catalogs' {
  const loaders: Record<string, () => Promise<{ default: import('@lingui/core').Messages }>>;
  export default loaders;
}
