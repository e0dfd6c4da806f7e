import type { TelegramLinkStatus, UpdateTelegramPreferencesBody } from '../../../../shared/telegram.js';
import { AppError } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepo } from '../audit/index.js';
import type { UserProfile } from '../users/index.js';
import type { TelegramChatsRepo } from './telegram-chats.repo.js';
import type { TelegramLinks } from './telegram-links.service.js';

export interface TelegramPreferencesDeps {
  chats: Pick<TelegramChatsRepo, 'setChoices'>;
  links: Pick<TelegramLinks, 'status'>;
  audit: AuditRepo;
  clock: Clock;
}

/**
 * A linked customer's choices of how they are told things: billing notices by Telegram only (no e-mails while the
 * bot reaches them; telegram-reach.ts), and sign-in codes to Telegram too (telegram-sign-in-codes.ts). They are kept
 * on the linked chat, so a customer with no Telegram linked has none to set.
 */
export function createTelegramPreferences(deps: TelegramPreferencesDeps) {
  return {
    /** Changes the choices given and answers the caller's Telegram as `GET /api/me/telegram` does; 409 with no Telegram linked. */
    async update(user: UserProfile, choices: UpdateTelegramPreferencesBody): Promise<TelegramLinkStatus> {
      const now = deps.clock();
      if (!(await deps.chats.setChoices(user.id, choices, now)))
        throw new AppError(409, 'telegram_not_linked', 'Connect your Telegram first: these choices are for the Telegram linked to you.');
      await deps.audit.record({ actorId: user.id, actorEmail: user.email, action: 'telegram.preferences', details: { ...choices }, now });
      return deps.links.status(user.id);
    },
  };
}

export type TelegramPreferencesService = ReturnType<typeof createTelegramPreferences>;
