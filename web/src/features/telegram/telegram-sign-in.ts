import { useEffect } from 'react';
import type { Me } from '../../../../shared/auth.js';
import { ERR } from '../../../../shared/errors.js';
import type { TelegramSignInResponse } from '../../../../shared/telegram-auth.js';
import { apiClient, isApiError } from '../../api';
import { finishMiniAppSignIn, miniAppState, saveMiniAppState } from './mini-app-state';

/** The one try of this page (React may start the session check twice): every caller gets its outcome. */
let signingIn: Promise<Me | null> | null = null;

async function signInWithLaunchData(): Promise<Me | null> {
  const state = miniAppState();
  if (!state?.initData || state.step !== 'sign-in') return null;
  try {
    const { user } = await apiClient.request<TelegramSignInResponse>('POST', '/api/auth/telegram', { body: { initData: state.initData } });
    finishMiniAppSignIn();
    return user;
  } catch (error) {
    // Linked to no one: the sign-in page shows, and the e-mail sign-in links them (useTelegramLinking).
    if (isApiError(error) && error.code === ERR.telegram_not_linked) saveMiniAppState({ ...state, step: 'link' });
    else finishMiniAppSignIn(); // too old, the bot off, offline: the sign-in page, as on the web
    return null;
  }
}

/**
 * The session check's answer, completed in the Mini App: signed out with Telegram's launch data in hand, the
 * customer that Telegram user is linked to is signed in with it. Signed in already, the data is not needed.
 */
export function signInFromMiniApp(signedIn: Me | null): Promise<Me | null> {
  if (signedIn) {
    if (miniAppState()?.step === 'sign-in') finishMiniAppSignIn();
    return Promise.resolve(signedIn);
  }
  signingIn ??= signInWithLaunchData();
  return signingIn;
}

/** Whether the Mini App's Telegram user is linked to no customer (the sign-in page then offers to go on without an e-mail). */
export const miniAppUnlinked = (): boolean => {
  const state = miniAppState();
  return Boolean(state?.initData && state.step === 'link');
};

/** The Mini App's Telegram user becomes a customer without an e-mail address (one can be added on the dashboard later). */
export async function signUpFromMiniApp(): Promise<Me> {
  const state = miniAppState();
  if (!state?.initData) throw new Error('no launch data from Telegram');
  const { user } = await apiClient.request<TelegramSignInResponse>('POST', '/api/auth/telegram', { body: { initData: state.initData, signUp: true } });
  finishMiniAppSignIn();
  return user;
}

/** Links the Telegram user whose launch data was refused as linked to no one, to the customer now signed in. */
async function linkPendingTelegram(): Promise<void> {
  const state = miniAppState();
  if (!state?.initData || state.step !== 'link') return;
  finishMiniAppSignIn();
  // Not through the API client: a 401 here is about the launch data, not the session, which stays.
  await fetch('/api/me/telegram', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ initData: state.initData }),
  }).catch(() => undefined); // offline: the next launch from Telegram is refused again, and the next sign-in links it
}

/** Once someone signs in (by e-mail, after Telegram's data named no customer), their Telegram is linked to them. */
export function useTelegramLinking(user: Me | null): void {
  useEffect(() => {
    if (user) void linkPendingTelegram();
  }, [user]);
}
