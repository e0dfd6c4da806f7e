import { describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';

/** A paid plan's device limit reaches the account through checkout, fulfilment and a renewal. */
describe.each(TEST_DATABASES)("a paid plan's device limit (%s)", (kind) => {
  const f = useBillingFixture(kind);
  const setPlanLimit = async (planId: string, deviceLimit: number | null) => {
    const res = await f.call(f.admin, 'PATCH', `/api/admin/plans/${planId}`, { deviceLimit });
    expect(res.statusCode, res.body).toBe(200);
  };
  const rowLimit = async (accountId: string) => (await f.env.database.db('vpn_accounts').where({ id: accountId }).first()).device_limit;

  it("is copied onto the account bought on it, and the plan's limit then is copied again when it is renewed", async () => {
    await setPlanLimit(f.paidPlanId, 2);
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    expect(await rowLimit(accountId)).toBe(2);
    expect((await f.call(user, 'GET', '/api/accounts')).json()[0]).toMatchObject({ id: accountId, deviceLimit: 2 });

    await setPlanLimit(f.paidPlanId, 5);
    expect(await rowLimit(accountId)).toBe(2); // changing the plan does not change accounts already bought
    const renewal = await f.checkout(user, { accountId });
    await f.stripe.pay(renewal.sessionId);
    await f.runJobs();
    expect(await rowLimit(accountId)).toBe(5);

    await setPlanLimit(f.paidPlanId, null);
    const unlimited = await f.checkout(user, { accountId });
    await f.stripe.pay(unlimited.sessionId);
    await f.runJobs();
    expect(await rowLimit(accountId)).toBeNull();
  });
});
