import type { ReferralSettings } from '../../../../shared/referrals.js';
import type { Db } from '../../db/knex.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepo } from '../audit/index.js';
import type { PromoCodesService } from '../promo-codes/index.js';
import type { SettingsService } from '../settings/index.js';
import type { ReferralRewards } from './referral-rewards.js';
import { settingsOf } from './referral-terms.js';
import type { ReferralsRepo } from './referrals.repo.js';

/** What the referral use cases (customer-referrals.ts, referral-admin.ts) work with. */
export interface ReferralsDeps {
  db: Db;
  repo: ReferralsRepo;
  rewards: ReferralRewards;
  settings: SettingsService;
  promos: Pick<PromoCodesService, 'referralCode'>;
  audit: AuditRepo;
  clock: Clock;
  publicUrl: URL;
}

/** The programme's settings: what the admin saved, over the defaults. */
export async function getReferralSettings(deps: Pick<ReferralsDeps, 'repo'>): Promise<ReferralSettings> {
  return settingsOf(await deps.repo.getSettings());
}
