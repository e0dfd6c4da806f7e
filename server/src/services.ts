import type { DomainEvents } from './domain-events.js';
import { schedulePeriodicJobs } from './jobs/periodic-jobs.js';
import { createEventBus, listen } from './lib/event-bus.js';
import { accountsModule } from './modules/accounts/accounts.module.js';
import { auditModule } from './modules/audit/audit.module.js';
import { backupsModule } from './modules/backups/backups.module.js';
import { authModule } from './modules/auth/auth.module.js';
import { checkoutModule } from './modules/billing/checkout/checkout.module.js';
import { customerPageModule } from './modules/customer-page/customer-page.module.js';
import { ledgerModule } from './modules/billing/ledger/ledger.module.js';
import { recurringPaymentsModule } from './modules/billing/recurring/recurring-payments.module.js';
import { subscriptionsModule } from './modules/billing/recurring/subscriptions.module.js';
import { planTrafficModule } from './modules/billing/traffic/plan-traffic.module.js';
import { refundsModule } from './modules/billing/refunds/refunds.module.js';
import { webhooksModule } from './modules/billing/webhooks/webhooks.module.js';
import { providerAccountsModule } from './modules/billing/provider-accounts/provider-accounts.module.js';
import { desktopReleasesModule } from './modules/desktop-releases/desktop-releases.module.js';
import { devicesModule } from './modules/devices/devices.module.js';
import { giftCodesModule } from './modules/gift-codes/gift-codes.module.js';
import { addOnsModule } from './modules/billing/add-ons/add-ons.module.js';
import type { Core } from './modules/module.js';
import { ModuleGraph } from './modules/module-graph.js';
import { metricsModule } from './modules/metrics/metrics.module.js';
import { overviewModule } from './modules/overview/overview.module.js';
import { panelImportModule } from './modules/panel-import/panel-import.module.js';
import { panelSyncModule } from './modules/panel-sync/panel-sync.module.js';
import { passkeysModule } from './modules/passkeys/passkeys.module.js';
import { plansModule } from './modules/plans/plans.module.js';
import { promoCodesModule } from './modules/promo-codes/promo-codes.module.js';
import { referralsModule } from './modules/referrals/referrals.module.js';
import { retentionModule } from './modules/retention/retention.module.js';
import { serversModule } from './modules/servers/servers.module.js';
import { settingsModule } from './modules/settings/settings.module.js';
import { setupModule } from './modules/setup/setup.module.js';
import { subscriptionModule } from './modules/subscription/subscription.module.js';
import { systemModule } from './modules/system/system.module.js';
import { telegramModule } from './modules/telegram/telegram.module.js';
import { usersModule } from './modules/users/users.module.js';
import { myDataModule } from './modules/my-data/my-data.module.js';
import { walletModule } from './modules/wallet/wallet.module.js';
import { platformModule } from './platform.module.js';
import { recordsModule } from './records.module.js';

/** What the app hands the modules (the rest of Core is made here). */
export type ServiceContext = Omit<Core, 'events' | 'periodicJobs' | 'secureCookies'>;

/**
 * Every module of the server, in the order they are built: each one's `build` uses only what the modules above
 * it built (the compiler checks), and tells the others what happened through events. Adding a module is one line
 * here; its routes, jobs and listeners come from its manifest.
 */
export function createServices(ctx: ServiceContext) {
  const events = createEventBus<DomainEvents>({ onError: (err, name) => ctx.log.error({ err, event: name }, 'an event listener failed') });
  const periodicJobs: string[] = [];
  const core: Core = { ...ctx, events, periodicJobs, secureCookies: ctx.config.publicUrl.protocol === 'https:' };
  const built = ModuleGraph.start(core, (listeners) => listen(events, listeners))
    .add(platformModule)
    .add(recordsModule)
    .add(metricsModule)
    .add(desktopReleasesModule)
    .add(providerAccountsModule)
    .add(settingsModule)
    .add(setupModule)
    .add(passkeysModule)
    .add(serversModule)
    .add(plansModule)
    .add(accountsModule)
    .add(subscriptionModule)
    .add(devicesModule)
    .add(panelSyncModule)
    .add(panelImportModule)
    .add(overviewModule)
    .add(promoCodesModule)
    .add(referralsModule)
    .add(ledgerModule)
    .add(recurringPaymentsModule)
    .add(refundsModule)
    .add(checkoutModule)
    .add(subscriptionsModule)
    .add(planTrafficModule)
    .add(webhooksModule)
    .add(walletModule)
    .add(giftCodesModule)
    .add(addOnsModule)
    .add(authModule)
    .add(usersModule)
    .add(telegramModule)
    .add(customerPageModule)
    .add(auditModule)
    .add(myDataModule)
    .add(backupsModule)
    .add(systemModule)
    .add(retentionModule)
    .finish(periodicJobs);
  const { services } = built;
  return {
    ...services,
    /** Every module's routes, registered by app.ts in this order. */
    routes: built.routes,
    /** What the job worker runs, by job type. */
    jobHandlers: built.jobHandlers,
    /** Which module declared what. */
    manifest: built.manifest,
    /** Puts every module's periodic jobs in the queue (once for all instances); main.ts calls it before starting the worker. */
    scheduleRecurringJobs: () => schedulePeriodicJobs(services.jobs, periodicJobs, services.clock()),
  };
}

export type Services = ReturnType<typeof createServices>;
