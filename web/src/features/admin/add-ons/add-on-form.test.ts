import { describe, expect, it } from 'vitest';
import { AddOnBody, AddOnPatchBody, type AddOn } from '../../../../../shared/add-ons.js';
import { addOnFormProblems, NEW_ADD_ON, toAddOnBody, trafficText, valuesFromAddOn, withKind, type AddOnFormValues } from './add-on-form';

const translate = ((id: string) => id) as Parameters<typeof addOnFormProblems>[1];
const GB = 1024 ** 3;

const SAVED: AddOn = {
  id: 'a1',
  name: 'More data',
  kind: 'traffic',
  amount: 50 * GB,
  price: 299,
  translations: { ru: { name: 'Больше трафика' } },
  appliesTo: ['p1', 'p2'],
  until: 'forever',
  status: 'active',
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('toAddOnBody', () => {
  it('sends one device for every plan until the period ends, the price in minor units', () => {
    const body = toAddOnBody({ ...NEW_ADD_ON, name: ' Extra device ', price: '1.50' }, 'usd');
    expect(body).toEqual({ name: 'Extra device', kind: 'devices', amount: 1, price: 150, translations: {}, appliesTo: null, until: 'period_end' });
    expect(AddOnBody.safeParse(body).success).toBe(true);
  });

  it('sends traffic typed in gigabytes as bytes, the plans ticked, and only the names typed in other languages', () => {
    const values: AddOnFormValues = {
      ...withKind({ ...NEW_ADD_ON, name: 'Fifty' }, 'traffic'),
      translations: { ru: ' Пятьдесят ', fa: '', 'zh-CN': '五十' },
      price: '300',
      planIds: ['p1'],
      until: 'forever',
    };
    const body = toAddOnBody(values, 'jpy');
    expect(body).toMatchObject({ kind: 'traffic', amount: 50 * GB, price: 300, appliesTo: ['p1'], until: 'forever' });
    expect(body.translations).toEqual({ ru: { name: 'Пятьдесят' }, 'zh-CN': { name: '五十' } });
    expect(AddOnPatchBody.safeParse(body).success).toBe(true);
    expect(toAddOnBody({ ...values, amount: '0.5' }, 'usd').amount).toBe(GB / 2);
  });

  it('puts a saved add-on back in the form as it was typed, and sends it back the same', () => {
    const values = valuesFromAddOn(SAVED, 'usd');
    expect(values).toMatchObject({ amount: '50', price: '2.99', planIds: ['p1', 'p2'], until: 'forever' });
    expect(values.translations).toEqual({ ru: 'Больше трафика', fa: '', 'zh-CN': '' });
    const { id: _id, status: _status, createdAt: _createdAt, ...fields } = SAVED;
    expect(toAddOnBody(values, 'usd')).toEqual(fields);
  });
});

describe('addOnFormProblems', () => {
  const problems = (values: Partial<AddOnFormValues>) => addOnFormProblems({ ...NEW_ADD_ON, name: 'X', price: '1', ...values }, translate, 'usd');

  it('finds nothing wrong with a whole number of devices or a size of traffic, at a price', () => {
    expect(problems({})).toEqual({});
    expect(problems({ kind: 'traffic', amount: '0.001' })).toEqual({});
    expect(problems({ kind: 'traffic', amount: '102400' })).toEqual({});
  });

  it('wants devices from 1 to 100, traffic from 1 MB to 100 TB', () => {
    for (const amount of ['0', '1.5', '101', '', 'x']) expect(problems({ amount }).amount, amount).toBe('admin.addOns.devicesProblem');
    for (const amount of ['0', '0.0009', '102401', '']) expect(problems({ kind: 'traffic', amount }).amount, amount).toBe('admin.addOns.trafficProblem');
  });

  it("wants a price above 0 with no more decimals than the store's currency has", () => {
    expect(problems({ price: '' }).price).toBe('admin.addOns.priceRequired');
    expect(problems({ price: '0' }).price).toBe('admin.addOns.priceRequired');
    expect(problems({ price: '1.999' }).price).toBe('admin.planForm.priceProblem');
    expect(addOnFormProblems({ ...NEW_ADD_ON, price: '1.5' }, translate, 'jpy').price).toBe('admin.planForm.priceProblem');
  });
});

describe('trafficText', () => {
  it('writes gigabytes with up to two decimals, megabytes under 1 GB', () => {
    expect(trafficText(50 * GB, 'en')).toBe('50 GB');
    expect(trafficText(1.5 * GB, 'en')).toBe('1.5 GB');
    expect(trafficText(512 * 1024 ** 2, 'en')).toBe('512 MB');
  });
});

describe('withKind', () => {
  it("puts the new kind's default amount in, and keeps the form as it is when the kind does not change", () => {
    const values = { ...NEW_ADD_ON, amount: '3' };
    expect(withKind(values, 'devices')).toBe(values);
    expect(withKind(values, 'traffic').amount).toBe('50');
  });
});
