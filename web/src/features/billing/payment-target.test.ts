import { describe, expect, it } from 'vitest';
import type { VpnAccount } from '../../../../shared/accounts.js';
import type { Plan } from '../../../../shared/plans.js';
import { renewalTargetFor, targetPlanName } from './payment-target';

const plan = {
  id: 'plus-1y',
  name: 'Plus 1 Year',
  tier: 'Plus',
  features: [],
  translations: { fa: { name: 'پلاس یک‌ساله' }, ru: { tier: 'Плюс' } },
} as unknown as Plan;
const account = { id: 'a1', planName: 'Old Plan', planId: null } as unknown as VpnAccount;

describe('targetPlanName', () => {
  it("names the plan being bought or renewed in the reader's language, English where it has no translation", () => {
    expect(targetPlanName({ kind: 'buy', plan }, 'your plan', 'fa')).toBe('پلاس یک‌ساله');
    expect(targetPlanName({ kind: 'buy', plan }, 'your plan', 'ru')).toBe('Plus 1 Year');
    expect(targetPlanName({ kind: 'renew', account, plan }, 'your plan', 'fa')).toBe('پلاس یک‌ساله');
  });

  it("falls back to the account's kept plan name, then to 'your plan'", () => {
    expect(targetPlanName({ kind: 'renew', account, plan: null }, 'your plan', 'fa')).toBe('Old Plan');
    // A plan off sale keeps its translated names on the account.
    const translated = { ...account, planNames: { ru: 'Старый тариф' } };
    expect(targetPlanName({ kind: 'renew', account: translated, plan: null }, 'your plan', 'ru')).toBe('Старый тариф');
    expect(targetPlanName({ kind: 'renew', account: translated, plan: null }, 'your plan', 'en')).toBe('Old Plan');
    expect(targetPlanName({ kind: 'renew', account: { ...account, planName: null }, plan: null }, 'ваш тариф', 'ru')).toBe('ваш тариф');
  });
});

describe('renewalTargetFor', () => {
  const paidPlan = { id: 'plus', isTrial: false, price: 499 } as unknown as Plan;
  const mine = { id: 'a1', planId: 'plus', renewable: true } as unknown as VpnAccount;
  const trial = { id: 'a2', planId: 'trial', renewable: false } as unknown as VpnAccount;

  it('is the renewal of one of the customer’s accounts on its plan on sale', () => {
    expect(renewalTargetFor([mine, trial], [paidPlan], 'a1')).toEqual({ kind: 'renew', account: mine, plan: paidPlan });
  });

  it('is none for an account not theirs (not listed), or one that cannot be renewed', () => {
    expect(renewalTargetFor([mine, trial], [paidPlan], 'someone-elses')).toBeNull();
    expect(renewalTargetFor([mine, trial], [paidPlan], 'a2')).toBeNull();
  });
});
