/**
 * The address a sign-in code was just sent to, kept for this tab only (sessionStorage), so /login can open at its
 * code step after a navigation or a reload. Never in the address bar: a URL ends up in the history, in shared links
 * and in server logs.
 */
const KEY = 'signInEmail';

export function rememberSignInEmail(email: string): void {
  try {
    sessionStorage.setItem(KEY, email);
  } catch {
    // Storage refused (private mode, quota): a reload then opens the e-mail step.
  }
}

export function pendingSignInEmail(): string {
  try {
    return sessionStorage.getItem(KEY) ?? '';
  } catch {
    return '';
  }
}

/** Whether `value` is an e-mail address the browser itself would accept in an `<input type="email">`. */
export function looksLikeEmail(value: string): boolean {
  return /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/.test(value);
}
