/** What electron-vite inlines into the main bundle (see server-url.ts). Absent when run by tsx. */
interface ImportMetaEnv {
  readonly MAIN_VITE_SERVER_URL?: string;
}

interface ImportMeta {
  readonly env?: ImportMetaEnv;
}
