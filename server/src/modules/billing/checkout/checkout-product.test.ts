import { describe, expect, it } from 'vitest';
import type { PlanRecord } from '../../plans/index.js';
import { checkoutProduct } from './checkout-product.js';

const GB = 1024 ** 3;
const plan = (locations: string) =>
  ({ name: 'Plus', days: 30, dataLimitBytes: 50 * GB, locations, translations: { ru: { name: 'Плюс' } } }) as unknown as PlanRecord;

/** Issue 57: the payment page's description names countries in the customer's language, never by their raw codes. */
describe('checkoutProduct', () => {
  it('names the countries of a plan by name in the customer language', () => {
    expect(checkoutProduct(plan('DE,NL'), 'purchase', 'ru')).toEqual({ productName: 'Плюс', description: expect.stringContaining('Германия, Нидерланды') });
    expect(checkoutProduct(plan('DE'), 'purchase', 'zh-CN').description).toContain('德国');
    expect(checkoutProduct(plan('all'), 'purchase', 'ru').description).not.toContain('all');
  });
});
