import { isStaff } from '../../../../shared/auth.js';
import { DEFAULT_LOCALE } from '../../../../shared/locales.js';
import { MY_DATA_MESSAGES, type MyDataExport } from '../../../../shared/my-data.js';
import { AppError, notFound } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { Keys } from '../../lib/crypto.js';
import { renderAccountDeletedEmail } from '../../mail/account-deleted-email.js';
import type { Mailer } from '../../mail/mailer.js';
import type { FastifyBaseLogger } from 'fastify';
import type { AccountsService } from '../accounts/index.js';
import type { AuditRepo } from '../audit/index.js';
import type { SettingsService } from '../settings/index.js';
import { erasedEmailHash, type UserProfile } from '../users/index.js';
import type { ErasureRepo, MoneyBlock } from './erasure.repo.js';
import type { MyDataExportRepo } from './my-data-export.repo.js';

export interface MyDataDeps {
  exports: MyDataExportRepo;
  erasure: ErasureRepo;
  accounts: AccountsService;
  audit: AuditRepo;
  settings: SettingsService;
  mailer: Mailer;
  keys: Keys;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: URL;
  /** Tells every instance the customer changed (their cached sessions are dropped at once). */
  userChanged: (userId: string) => void;
}

const refusal = (block: MoneyBlock) =>
  block === 'auto_renew_on'
    ? new AppError(409, 'auto_renew_on', MY_DATA_MESSAGES.autoRenewOn)
    : new AppError(409, 'payment_open', MY_DATA_MESSAGES.paymentOpen);

/** A customer's own data: all of it as JSON, and its erasure (issue 56). */
export function createMyDataService(deps: MyDataDeps) {
  return {
    async exportFor(user: UserProfile): Promise<MyDataExport> {
      const data = await deps.exports.read(user.id, deps.clock());
      if (!data) throw notFound('User not found');
      return data;
    },

    /**
     * Deletes the caller: refused while a subscription renews by itself or money is on its way; then each VPN account
     * from its panel (one that cannot be reached stops everything here), then the personal data in one transaction;
     * then an e-mail to the address it had.
     */
    async eraseMe(user: UserProfile): Promise<void> {
      if (isStaff(user.role)) throw new AppError(409, 'staff_account', MY_DATA_MESSAGES.staffAccount);
      const now = deps.clock();
      const block = await deps.erasure.blockOf(user.id, now);
      if (block) throw refusal(block);
      await removeAccounts(deps, user);
      const result = await deps.erasure.erase(user.id, { email: user.email, emailHash: user.email ? erasedEmailHash(deps.keys, user.email) : null, now });
      if (!result.erased) throw refusal(result.block === 'accounts_left' ? 'payment_open' : result.block);
      deps.userChanged(user.id);
      if (result.already) return;
      await deps.audit.record({ actorId: user.id, actorEmail: null, action: 'user.erased', targetType: 'user', targetId: user.id, now });
      if (user.email) await sendDeletedEmail(deps, user, now);
    },
  };
}

export type MyDataService = ReturnType<typeof createMyDataService>;

async function removeAccounts(deps: MyDataDeps, user: UserProfile): Promise<void> {
  for (const id of await deps.erasure.accountIds(user.id)) {
    try {
      await deps.accounts.deleteAccount(user, id, { evenSuspended: true });
    } catch (err) {
      if (err instanceof AppError && err.code === 'panel_error') throw new AppError(503, 'panel_error', MY_DATA_MESSAGES.panelUnreachable);
      // Deleted meanwhile by another request: nothing left to do for it.
      if (err instanceof AppError && err.statusCode === 404) continue;
      throw err;
    }
  }
}

/** The confirmation goes to the address the account had; the deletion stands even if the mail cannot be sent. */
async function sendDeletedEmail(deps: MyDataDeps, user: UserProfile, now: Date): Promise<void> {
  try {
    const { brandName } = await deps.settings.getAppSettings();
    await deps.mailer.send(
      renderAccountDeletedEmail({ to: user.email!, brandName, publicUrl: deps.publicUrl, locale: user.locale ?? DEFAULT_LOCALE, deletedAt: now }),
    );
  } catch (err) {
    deps.log.warn({ err: err instanceof Error ? err.message : String(err), userId: user.id }, 'the account-deleted e-mail could not be sent');
  }
}
