/**
 * What the plans module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { toTranslations as readPlanTranslations, type PlanRecord, type PlansRepo } from './plans.repo.js';
export { isPaidTrial, isPurchasable, isTrialPlan } from './plans.service.js';
export { type plansModule } from './plans.module.js';
