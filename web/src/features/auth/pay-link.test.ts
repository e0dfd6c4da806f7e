import { describe, expect, it } from 'vitest';
import { checkoutPathAfterPayLink } from './pay-link';

describe('checkoutPathAfterPayLink', () => {
  it('opens the dashboard’s payment dialog for the plan a payment link names', () => {
    expect(checkoutPathAfterPayLink({ planId: 'plan-1' })).toBe('/dashboard?plan=plan-1');
  });

  it('opens the renewal of the account a payment link names', () => {
    expect(checkoutPathAfterPayLink({ accountId: 'acc 1&x' })).toBe('/dashboard?renew=acc+1%26x');
  });
});

describe('checkoutPathAfterPayLink for an account’s add-ons or plan change', () => {
  it('opens the account’s add-ons, or its plan change, as the link’s action says', () => {
    expect(checkoutPathAfterPayLink({ accountId: 'acc-1', action: 'add_ons' })).toBe('/dashboard?add-ons=acc-1');
    expect(checkoutPathAfterPayLink({ accountId: 'acc-1', action: 'change_plan' })).toBe('/dashboard?change-plan=acc-1');
  });
});
