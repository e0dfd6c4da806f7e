import { PanelError, type NewPanelAccount, type PanelAccount } from './panel-driver.js';
import { failureFor, type PanelResponse } from './panel-http.js';

/**
 * After a 409, a 5xx or a timeout on create, a write may have happened (Marzban saves, then answers
 * 500): read the user back and adopt it only if it carries our marker in its note. Never repeat the POST.
 */
export async function adoptIfOurs(
  input: NewPanelAccount,
  cause: PanelError | PanelResponse,
  readUser: (username: string) => Promise<unknown | null>,
  toAccount: (user: unknown) => PanelAccount,
): Promise<PanelAccount> {
  const existing = (await readUser(input.username)) as { note?: string | null } | null;
  if (existing && existing.note === input.note) return toAccount(existing);
  if (cause instanceof PanelError) throw cause;
  if (existing) throw new PanelError('conflict', `The username ${input.username} is already taken on the panel`, 409);
  throw failureFor(cause, 'Creating the user');
}
