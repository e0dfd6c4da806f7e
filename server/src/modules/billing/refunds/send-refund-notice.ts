import { z } from 'zod';
import { DEFAULT_LOCALE } from '../../../../../shared/locales.js';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';
import type { Mailer } from '../../../mail/mailer.js';
import type { PlansRepo } from '../../plans/index.js';
import type { SettingsService } from '../../settings/index.js';
import type { UsersRepo } from '../../users/index.js';
import type { BillingRepo } from '../billing.repo.js';
import { composeRefundEmail } from './compose-refund-email.js';

const Payload = z.object({ transactionId: z.string().min(1), amountRefunded: z.number().int().positive() });

/**
 * A refund e-mail queued as a job of its own, before refunds were billing notices (billing-notices.ts, kind `refund`,
 * which go by Telegram too): sent as it was meant to be, once per refunded total.
 */
export function createSendRefundNoticeHandler(deps: {
  billing: BillingRepo;
  plans: PlansRepo;
  users: UsersRepo;
  settings: SettingsService;
  mailer: Mailer;
  publicUrl: URL;
}): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad refund notice payload');
    const { brandName } = await deps.settings.getAppSettings();
    const mail = await composeRefundEmail(deps, { kind: 'refund', ...parsed.data }, { brandName, publicUrl: deps.publicUrl });
    const user = mail && (await deps.users.findById(mail.userId));
    if (!mail || !user?.email) return;
    await deps.mailer.send(mail.render(user.email, user.locale ?? DEFAULT_LOCALE));
  };
}
