import { randomUUID } from 'node:crypto';
import { trafficRulesProblems, type AdminPlan, type Plan, type PlanBody, type UpdatePlanBody } from '../../../../shared/plans.js';
import { recurringProblem } from '../../../../shared/plan-billing.js';
import { isListedPublicly } from '../../../../shared/pricing.js';
import { planLocationCodes, type PlanServer } from '../../../../shared/plan-servers.js';
import { AppError, notFound, validationFailed } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { toJsonAnswer, type JsonAnswer } from '../../lib/json-answer.js';
import { versionedRead } from '../../lib/versioned-read.js';
import { changedFields, type AuditRepo } from '../audit/index.js';
import type { ServerRecord, ServersService } from '../servers/index.js';
import type { SettingsService } from '../settings/index.js';
import type { Actor } from '../users/index.js';
import type { PlanRecord, PlansRepo } from './plans.repo.js';

/** A plan is the trial when it says so, or when settings name it the trial plan. */
export const isTrialPlan = (plan: PlanRecord, trialPlanId: string | null) => plan.isTrial || plan.id === trialPlanId;

/** A plan can be bought (or renewed) by card: on sale, not free, not the trial. */
export const isPurchasable = (plan: Pick<PlanRecord, 'id' | 'status' | 'price' | 'isTrial'>, trialPlanId: string | null) =>
  plan.status === 'active' && plan.price > 0 && !plan.isTrial && plan.id !== trialPlanId;

/** The trial with a price: bought through checkout (any method), once per person, never claimed free (payments.md, Trials). */
export const isPaidTrial = (plan: Pick<PlanRecord, 'id' | 'status' | 'price' | 'isTrial'>, trialPlanId: string | null) =>
  plan.status === 'active' && plan.price > 0 && (plan.isTrial || plan.id === trialPlanId);

type ServerPlaces = Array<Pick<ServerRecord, 'id' | 'locations'>>;

const toPlan = (plan: PlanRecord, trialPlanId: string | null, servers: ServerPlaces): Plan => ({
  id: plan.id,
  name: plan.name,
  days: plan.days,
  dataLimitBytes: plan.dataLimitBytes,
  locations: plan.locations,
  locationCodes: planLocationCodes(plan, servers),
  price: plan.price,
  isTrial: isTrialPlan(plan, trialPlanId),
  tier: plan.tier,
  features: plan.features,
  mostPopular: plan.mostPopular,
  sortOrder: plan.sortOrder,
  public: plan.public,
  billing: plan.billing,
  deviceLimit: plan.deviceLimit,
  starsPrice: plan.starsPrice,
  translations: plan.translations,
  trafficReset: plan.trafficReset,
  trafficCarryOver: plan.trafficCarryOver,
  graceDays: plan.graceDays,
  graceDataBytes: plan.graceDataBytes,
});

/** A recurring plan renews by itself: whole days a provider can bill, a price, and not the trial. */
function assertBillable(plan: Pick<PlanRecord, 'billing' | 'days' | 'price' | 'isTrial'>): void {
  if (plan.billing !== 'recurring') return;
  const problem =
    recurringProblem(plan.days) ??
    (plan.price <= 0 ? 'A recurring plan has a price.' : null) ??
    (plan.isTrial ? 'The trial cannot renew automatically.' : null);
  if (problem) throw validationFailed({ billing: problem }, problem);
}

/** The traffic rules taken together: a monthly reset needs a plan of more than 31 days, grace data needs grace days. */
function assertTrafficRules(plan: Pick<PlanRecord, 'days' | 'trafficReset' | 'graceDays' | 'graceDataBytes'>): void {
  const problems = trafficRulesProblems(plan);
  const first = Object.values(problems)[0];
  if (first) throw validationFailed(problems, first);
}

const toAdminPlan = (plan: PlanRecord, trialPlanId: string | null, servers: ServerPlaces): AdminPlan => ({
  ...toPlan(plan, trialPlanId, servers),
  status: plan.status,
  servers: plan.servers,
  createdAt: plan.createdAt.toISOString(),
  updatedAt: plan.updatedAt.toISOString(),
});

/**
 * The servers a plan lists exist, and the squads or groups given for each are ones its panel offers (when the panel
 * answers: one that does not is not a reason to refuse the plan).
 */
async function assertPlanServers(servers: Pick<ServersService, 'findServerRecord' | 'unknownServices'>, listed: PlanServer[]): Promise<void> {
  const problems: Record<string, string> = {};
  for (const [index, entry] of listed.entries()) {
    const server = await servers.findServerRecord(entry.serverId);
    if (!server) {
      problems[`servers.${index}.serverId`] = 'No such server.';
      continue;
    }
    const unknown = entry.serviceId ? await servers.unknownServices(server, entry.serviceId) : [];
    if (unknown && unknown.length > 0)
      problems[`servers.${index}.serviceId`] = `The panel of ${server.name} has no squad, group or service ${unknown.join(', ')}. Pick from its list.`;
  }
  const first = Object.values(problems)[0];
  if (first) throw validationFailed(problems, first);
}

export function createPlansService(deps: {
  plans: PlansRepo;
  /** Where plans may put accounts (shared/plan-servers.ts): the servers they list are checked, and tell the location codes. */
  servers: Pick<ServersService, 'listServerRecords' | 'findServerRecord' | 'unknownServices'>;
  settings: SettingsService;
  audit: AuditRepo;
  clock: Clock;
  /** Any plan changed (the public pages on every instance follow). */
  onChange?: () => void;
  /** Moves when the site changes on any instance (a plan, or the settings that mark the trial): the public list follows. */
  siteVersion?: () => number;
  /** A recurring plan was saved: its product and price at the payment provider follow (a queued job). */
  recurringPlanSaved?: (plan: PlanRecord) => Promise<void>;
}) {
  const { plans, clock } = deps;
  /** Bumped by every change an admin makes here, so pages showing plans are redrawn at once. */
  let version = 0;
  const changed = () => {
    version += 1;
    deps.onChange?.();
  };
  const trialPlanId = async () => (await deps.settings.getAppSettings()).trialPlanId;
  const listPublicPlans = async (): Promise<Plan[]> => {
    const [trial, servers] = [await trialPlanId(), await deps.servers.listServerRecords()];
    return (await plans.listActive()).map((plan) => toPlan(plan, trial, servers));
  };
  const adminPlan = async (plan: PlanRecord) => toAdminPlan(plan, await trialPlanId(), await deps.servers.listServerRecords());
  /** `/api/plans` serialised once per change (here or, through the signal, elsewhere), as the pages are drawn. */
  const publicPlansAnswer = versionedRead<JsonAnswer>(async () => toJsonAnswer(await listPublicPlans()), {
    version: () => version + (deps.siteVersion?.() ?? 0),
    now: () => clock().getTime(),
  });
  const record = (actor: Actor, action: string, id: string, details: Record<string, unknown> = {}) =>
    deps.audit.record({ actorId: actor.id, actorEmail: actor.email, action, targetType: 'plan', targetId: id, details, ip: actor.ip ?? null, now: clock() });

  return {
    listPublicPlans,

    publicPlansAnswer,

    /** The plans the public pages list: active, public, not the trial; in display order. */
    async listPricingPlans(): Promise<Plan[]> {
      return (await this.listPublicPlans()).filter(isListedPublicly);
    },

    /** Changes when an admin creates, edits or deletes a plan on this instance. */
    catalogVersion(): number {
      return version;
    },

    async listAdminPlans(): Promise<AdminPlan[]> {
      const [trial, servers] = [await trialPlanId(), await deps.servers.listServerRecords()];
      return (await plans.listAll()).map((plan) => toAdminPlan(plan, trial, servers));
    },

    async createPlan(actor: Actor, body: PlanBody): Promise<AdminPlan> {
      assertBillable(body);
      assertTrafficRules(body);
      await assertPlanServers(deps.servers, body.servers);
      const plan = await plans.insert(randomUUID(), body, clock());
      changed();
      if (plan.billing === 'recurring') await deps.recurringPlanSaved?.(plan);
      await record(actor, 'plan.create', plan.id, {
        before: null,
        after: { name: plan.name, price: plan.price, days: plan.days, dataLimitBytes: plan.dataLimitBytes },
        name: plan.name,
        price: plan.price,
        billing: plan.billing,
        deviceLimit: plan.deviceLimit,
        starsPrice: plan.starsPrice,
        trafficReset: plan.trafficReset,
        trafficCarryOver: plan.trafficCarryOver,
        graceDays: plan.graceDays,
        graceDataBytes: plan.graceDataBytes,
        servers: plan.servers,
      });
      return adminPlan(plan);
    },

    async updatePlan(actor: Actor, id: string, patch: UpdatePlanBody): Promise<AdminPlan> {
      const current = await plans.findById(id);
      if (!current) throw notFound('Plan not found');
      assertBillable({ ...current, ...patch });
      assertTrafficRules({ ...current, ...patch });
      if (patch.servers) await assertPlanServers(deps.servers, patch.servers);
      const plan = await plans.update(id, patch, clock());
      if (!plan) throw notFound('Plan not found');
      changed();
      if (plan.billing === 'recurring') await deps.recurringPlanSaved?.(plan);
      await record(actor, 'plan.update', id, { fields: Object.keys(patch), name: plan.name, ...changedFields(current, plan, Object.keys(patch)) });
      return adminPlan(plan);
    },

    async deletePlan(actor: Actor, id: string): Promise<void> {
      const plan = await plans.findById(id);
      if (!plan) throw notFound('Plan not found');
      const references = await plans.countReferences(id);
      if (references > 0) throw new AppError(409, 'plan_in_use', 'Accounts or subscriptions use this plan. Disable it instead.');
      await plans.remove(id);
      changed();
      await record(actor, 'plan.delete', id, {
        name: plan.name,
        before: { name: plan.name, price: plan.price, days: plan.days, status: plan.status },
        after: null,
      });
    },
  };
}

export type PlansService = ReturnType<typeof createPlansService>;
