import type { Knex } from 'knex';
import type { Db } from './knex.js';
import * as initial from './migrations/001-initial.js';
import * as trialClaims from './migrations/002-trial-claims.js';
import * as planPricing from './migrations/003-plan-pricing.js';
import * as provisioningIntent from './migrations/004-provisioning-intent.js';
import * as paymentReferences from './migrations/005-payment-references.js';
import * as recurringBilling from './migrations/006-recurring-billing.js';
import * as retentionIndexes from './migrations/007-retention-indexes.js';
import * as serverHealth from './migrations/008-server-health.js';
import * as panelSync from './migrations/009-panel-sync.js';
import * as adminUsers from './migrations/010-admin-users.js';
import * as auditTarget from './migrations/011-audit-target.js';
import * as overview from './migrations/012-overview.js';
import * as serverPublicName from './migrations/013-server-public-name.js';
import * as locales from './migrations/014-locales.js';
import * as panelServiceIds from './migrations/015-panel-service-ids.js';
import * as deviceLimits from './migrations/016-device-limits.js';
import * as reconcileSchedule from './migrations/017-reconcile-schedule.js';
import * as refunds from './migrations/019-refunds.js';
import * as unreadableWebhookVersions from './migrations/021-unreadable-webhook-versions.js';
import * as paidPeriods from './migrations/022-paid-periods.js';
import * as providerAccounts from './migrations/023-provider-accounts.js';
import * as planTranslations from './migrations/024-plan-translations.js';
import * as overviewCounts from './migrations/025-overview-counts.js';
import * as userListFlags from './migrations/026-user-list-flags.js';
import * as subscriptionCopies from './migrations/027-subscription-copies.js';
import * as jobSerialKeys from './migrations/028-job-serial-keys.js';
import * as overviewHistory from './migrations/029-overview-history.js';
import * as accountPaidState from './migrations/030-account-paid-state.js';
import * as userListEmailIndex from './migrations/031-user-list-email-index.js';
import * as promoCodes from './migrations/032-promo-codes.js';
import * as giftCodes from './migrations/033-gift-codes.js';
import * as transactionDiscounts from './migrations/034-transaction-discounts.js';
import * as referrals from './migrations/035-referrals.js';
import * as servedCopies from './migrations/036-served-copies.js';
import * as wallet from './migrations/037-wallet.js';
import * as savedPaymentMethods from './migrations/038-saved-payment-methods.js';
import * as walletAutoRenew from './migrations/039-wallet-auto-renew.js';
import * as countedDevicelessClients from './migrations/040-counted-deviceless-clients.js';
import * as panelTokenExpiry from './migrations/041-panel-token-expiry.js';
import * as telegram from './migrations/042-telegram.js';
import * as telegramLinking from './migrations/043-telegram-linking.js';
import * as telegramBroadcasts from './migrations/044-telegram-broadcasts.js';
import * as planStarsPrice from './migrations/045-plan-stars-price.js';
import * as telegramPayLinks from './migrations/046-telegram-pay-links.js';
import * as telegramStartPayloads from './migrations/047-telegram-start-payloads.js';
import * as usersWithoutEmail from './migrations/048-users-without-email.js';
import * as telegramChatsEverLinked from './migrations/050-telegram-chats-ever-linked.js';
import * as telegramDeliveryChoices from './migrations/051-telegram-delivery-choices.js';
import * as planChanges from './migrations/052-plan-changes.js';
import * as planTrafficRules from './migrations/053-plan-traffic-rules.js';
import * as addOns from './migrations/054-add-ons.js';
import * as planServers from './migrations/055-plan-servers.js';
import * as payLinkActions from './migrations/056-telegram-pay-link-actions.js';
import * as erasedCustomers from './migrations/057-erased-customers.js';
import * as staffRoles from './migrations/058-staff-roles.js';
import * as passkeys from './migrations/059-passkeys.js';
import * as auditTrail from './migrations/060-audit-trail.js';
import * as regionNameTranslations from './migrations/061-region-name-translations.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/**
 * Migrations are listed here, in order, so they load the same from source and from the build.
 * Counters are kept by triggers (025 overview counts, 026 per-user flags, 029 the overview's history
 * marker, 030 accounts' paid state) on user_profiles, vpn_accounts, subscriptions, transactions,
 * paid_periods, overview_counts and daily_stats: on SQLite, a migration that drops or alters a column of
 * those tables rebuilds the table and loses its triggers, so it must create them again (026 exports
 * `createCountingTriggers`, 030 `createPaidStateTriggers`); the counter tests, run on the fully migrated
 * schema, fail if it does not.
 */
const MIGRATIONS: Array<readonly [name: string, migration: Migration]> = [
  ['001-initial', initial],
  ['002-trial-claims', trialClaims],
  ['003-plan-pricing', planPricing],
  ['004-provisioning-intent', provisioningIntent],
  ['005-payment-references', paymentReferences],
  ['006-recurring-billing', recurringBilling],
  ['007-retention-indexes', retentionIndexes],
  ['008-server-health', serverHealth],
  ['009-panel-sync', panelSync],
  ['010-admin-users', adminUsers],
  ['011-audit-target', auditTarget],
  ['012-overview', overview],
  ['013-server-public-name', serverPublicName],
  ['014-locales', locales],
  ['015-panel-service-ids', panelServiceIds],
  ['016-device-limits', deviceLimits],
  ['017-reconcile-schedule', reconcileSchedule],
  ['019-refunds', refunds],
  ['021-unreadable-webhook-versions', unreadableWebhookVersions],
  ['022-paid-periods', paidPeriods],
  ['023-provider-accounts', providerAccounts],
  ['024-plan-translations', planTranslations],
  ['025-overview-counts', overviewCounts],
  ['026-user-list-flags', userListFlags],
  ['027-subscription-copies', subscriptionCopies],
  ['028-job-serial-keys', jobSerialKeys],
  ['029-overview-history', overviewHistory],
  ['030-account-paid-state', accountPaidState],
  ['031-user-list-email-index', userListEmailIndex],
  ['032-promo-codes', promoCodes],
  ['033-gift-codes', giftCodes],
  ['034-transaction-discounts', transactionDiscounts],
  ['035-referrals', referrals],
  ['036-served-copies', servedCopies],
  ['037-wallet', wallet],
  ['038-saved-payment-methods', savedPaymentMethods],
  ['039-wallet-auto-renew', walletAutoRenew],
  ['040-counted-deviceless-clients', countedDevicelessClients],
  ['041-panel-token-expiry', panelTokenExpiry],
  ['042-telegram', telegram],
  ['043-telegram-linking', telegramLinking],
  ['044-telegram-broadcasts', telegramBroadcasts],
  ['045-plan-stars-price', planStarsPrice],
  ['046-telegram-pay-links', telegramPayLinks],
  ['047-telegram-start-payloads', telegramStartPayloads],
  ['048-users-without-email', usersWithoutEmail],
  ['050-telegram-chats-ever-linked', telegramChatsEverLinked],
  ['051-telegram-delivery-choices', telegramDeliveryChoices],
  ['052-plan-changes', planChanges],
  ['053-plan-traffic-rules', planTrafficRules],
  ['054-add-ons', addOns],
  ['055-plan-servers', planServers],
  ['056-telegram-pay-link-actions', payLinkActions],
  ['057-erased-customers', erasedCustomers],
  ['058-staff-roles', staffRoles],
  ['059-passkeys', passkeys],
  ['060-audit-trail', auditTrail],
  ['061-region-name-translations', regionNameTranslations],
];

const source: Knex.MigrationSource<readonly [string, Migration]> = {
  getMigrations: async () => MIGRATIONS,
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};

export async function migrateToLatest(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource: source });
}
