import { randomUUID } from 'node:crypto';
import { ADD_ON_MESSAGES, type AccountAddOns, type AddOn, type AddOnBody, type AddOnPatchBody } from '../../../../../shared/add-ons.js';
import type { Db } from '../../../db/knex.js';
import { AppError, notFound, validationFailed } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { AccountsRepo } from '../../accounts/index.js';
import type { AuditRepo } from '../../audit/index.js';
import type { PlansRepo } from '../../plans/index.js';
import type { Actor, UserProfile } from '../../users/index.js';
import type { AddOnRecord, AddOnsRepo } from './add-ons.repo.js';

const toAddOn = (record: AddOnRecord): AddOn => ({ ...record, createdAt: record.createdAt.toISOString() });

/**
 * The add-ons the operator sells (each change audited), and what one account may buy and has. Buying one is an order
 * (billing/checkout/start-add-on.ts).
 */
export function createAddOnsService(deps: { db: Db; repo: AddOnsRepo; plans: PlansRepo; accounts: AccountsRepo; audit: AuditRepo; clock: Clock }) {
  const { repo } = deps;

  /** The plans named must exist (a list naming none would sell it to nobody: null sells it to every plan). */
  async function checkPlans(appliesTo: string[] | null | undefined): Promise<void> {
    if (!appliesTo) return;
    if (appliesTo.length === 0) throw validationFailed({ appliesTo: 'Name at least one plan, or null for every plan' });
    for (const planId of appliesTo) if (!(await deps.plans.findById(planId))) throw validationFailed({ appliesTo: `No such plan: ${planId}` });
  }

  async function audited(actor: Actor, action: string, id: string, details: Record<string, unknown>, change: (trx: Db) => Promise<void>) {
    await deps.db.transaction(async (trx) => {
      await change(trx);
      await deps.audit.record(
        { actorId: actor.id, actorEmail: actor.email, action, targetType: 'add_on', targetId: id, details, ip: actor.ip ?? null, now: deps.clock() },
        trx,
      );
    });
  }

  async function found(id: string): Promise<AddOnRecord> {
    const addOn = await repo.findById(id);
    if (!addOn) throw notFound(ADD_ON_MESSAGES.notFound);
    return addOn;
  }

  return {
    async list(): Promise<AddOn[]> {
      return (await repo.list()).map(toAddOn);
    },

    async create(actor: Actor, body: AddOnBody): Promise<AddOn> {
      await checkPlans(body.appliesTo);
      const addOn = { id: randomUUID(), ...body };
      await audited(actor, 'add_on.create', addOn.id, body, (trx) => repo.insert(addOn, deps.clock(), trx));
      return toAddOn((await repo.findById(addOn.id))!);
    },

    /** A change applies to what is bought from now; what accounts have keeps the terms they paid for. */
    async update(actor: Actor, id: string, body: AddOnPatchBody): Promise<AddOn> {
      const before = await found(id);
      const kind = body.kind ?? before.kind;
      if ((body.kind !== undefined) !== (body.amount !== undefined) && kind !== before.kind)
        throw validationFailed({ amount: 'Send the amount with a new kind' });
      await checkPlans(body.appliesTo);
      await audited(actor, 'add_on.update', id, { before: toAddOn(before), changes: body }, (trx) =>
        repo.update(id, body, deps.clock(), trx).then(() => undefined),
      );
      return toAddOn((await repo.findById(id))!);
    },

    /** Only one nobody has bought (else 409: switch it off). */
    async remove(actor: Actor, id: string): Promise<void> {
      const addOn = await found(id);
      if ((await repo.grantCount(id)) > 0) throw new AppError(409, 'add_on_in_use', ADD_ON_MESSAGES.inUse);
      await audited(actor, 'add_on.delete', id, { name: addOn.name }, (trx) => repo.remove(id, trx));
    },

    /** What the caller's account can buy now (on sale, for its plan, with a limit of that kind) and the add-ons it has. */
    async forAccount(user: UserProfile, accountId: string): Promise<AccountAddOns> {
      const account = await deps.accounts.findForUser(accountId, user.id);
      if (!account) throw notFound('Account not found');
      const now = deps.clock();
      const limited = { devices: account.deviceLimit !== null, traffic: account.dataLimitBytes > 0 };
      const offered = (await repo.list()).filter(
        (addOn) =>
          addOn.status === 'active' &&
          account.planId !== null &&
          (addOn.appliesTo === null || addOn.appliesTo.includes(account.planId)) &&
          limited[addOn.kind] &&
          account.status !== 'suspended',
      );
      return {
        offered: offered.map(({ id, name, kind, amount, price, until, translations }) => ({ id, name, kind, amount, price, until, translations })),
        active: (await repo.liveGrants(account.id, now)).map((grant) => ({
          id: grant.id,
          name: grant.name,
          kind: grant.kind,
          amount: grant.amount,
          until: grant.until,
          endsAt: grant.endsAt?.toISOString() ?? null,
          createdAt: grant.createdAt.toISOString(),
        })),
      };
    },
  };
}

export type AddOnsService = ReturnType<typeof createAddOnsService>;
