import type { Db } from '../../db/knex.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepo } from '../audit/index.js';
import type { PlansRepo } from '../plans/index.js';
import type { SettingsService } from '../settings/index.js';
import type { PromoCodesRepo } from './promo-codes.repo.js';

/** What the promo code use cases (promo-admin.ts, promo-checkout.ts) work with. */
export interface PromoCodesDeps {
  db: Db;
  repo: PromoCodesRepo;
  plans: PlansRepo;
  settings: SettingsService;
  audit: AuditRepo;
  clock: Clock;
}
