import type { ColorScheme, MiniAppLaunch } from './launch-params';

/**
 * Where the Mini App is in signing in, kept for this tab (it survives a reload and a page in another language):
 * `sign-in` until the launch data was tried, `link` while a Telegram user linked to no one signs in by e-mail (the
 * data then links them), `done` after (the data is dropped). The color scheme stays for the tab.
 */
export interface MiniAppState {
  initData: string | null;
  step: 'sign-in' | 'link' | 'done';
  colorScheme: ColorScheme | null;
}

const STORAGE_KEY = 'vpn.telegramMiniApp';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null; // storage blocked: the launch data lasts for this page only
  }
}

let inMemory: MiniAppState | null = null;

export function miniAppState(): MiniAppState | null {
  const stored = storage()?.getItem(STORAGE_KEY);
  if (!stored) return inMemory;
  try {
    return JSON.parse(stored) as MiniAppState;
  } catch {
    return null;
  }
}

export function saveMiniAppState(state: MiniAppState): void {
  inMemory = state;
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or blocked: kept in memory for this page.
  }
}

/** Telegram opened the page with launch data: it is tried once, whatever happened to the data before. */
export function rememberLaunch(launch: MiniAppLaunch): void {
  saveMiniAppState({ initData: launch.initData, step: 'sign-in', colorScheme: launch.colorScheme ?? miniAppState()?.colorScheme ?? null });
}

/** The launch data has done its work (or cannot): dropped, the look kept. */
export function finishMiniAppSignIn(): void {
  const state = miniAppState();
  if (state && state.step !== 'done') saveMiniAppState({ ...state, initData: null, step: 'done' });
}
