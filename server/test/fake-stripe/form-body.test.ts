import { describe, expect, it } from 'vitest';
import { asList, canonicalForm, decodeForm, FormDecodeError } from './form-body.js';

describe("decodeForm (the Stripe SDK's bracket notation)", () => {
  it('decodes nested hashes and indexed arrays as the SDK encodes them', () => {
    const form = decodeForm(
      'mode=payment&line_items[0][price_data][currency]=usd&line_items[0][price_data][unit_amount]=500' +
        '&line_items[0][price_data][product_data][name]=VPN%20Pro%20%E2%80%94%201%20month&line_items[0][quantity]=2' +
        '&metadata[orderId]=42&metadata[note]=a%26b%3Dc&success_url=https%3A%2F%2Fshop.example%2Fok%3Fid%3D%7BCHECKOUT_SESSION_ID%7D',
    );
    expect(JSON.parse(JSON.stringify(form))).toEqual({
      mode: 'payment',
      line_items: { 0: { price_data: { currency: 'usd', unit_amount: '500', product_data: { name: 'VPN Pro — 1 month' } }, quantity: '2' } },
      metadata: { orderId: '42', note: 'a&b=c' },
      success_url: 'https://shop.example/ok?id={CHECKOUT_SESSION_ID}',
    });
  });

  it('accepts percent-encoded brackets, "+" for spaces, "[]" appends, empty values', () => {
    const form = decodeForm('expand%5B%5D=a&expand[]=b&name=two+words&empty=');
    expect(asList(form.expand as Record<string, string>)).toEqual(['a', 'b']);
    expect(form.name).toBe('two words');
    expect(form.empty).toBe('');
  });

  it('reads an indexed hash as an array only when the indexes are 0…n-1', () => {
    expect(asList(decodeForm('a[1]=y&a[0]=x').a as Record<string, string>)).toEqual(['x', 'y']);
    expect(asList(decodeForm('a[0]=x&a[2]=z').a as Record<string, string>)).toBeNull();
    expect(asList(decodeForm('a[k]=x').a as Record<string, string>)).toBeNull();
  });

  it('rejects a key that is both a value and a hash, bad brackets and bad percent-encoding', () => {
    expect(() => decodeForm('a=1&a[b]=2')).toThrow(FormDecodeError);
    expect(() => decodeForm('a[b]=2&a=1')).toThrow(FormDecodeError);
    expect(() => decodeForm('a[b=1')).toThrow(FormDecodeError);
    expect(() => decodeForm('a=%E2%80')).toThrow(FormDecodeError);
  });

  it('keeps __proto__ as a plain key', () => {
    const form = decodeForm('__proto__[polluted]=yes&metadata[__proto__]=x');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(form)).toEqual(['__proto__', 'metadata']);
  });

  it('canonicalForm ignores key order', () => {
    expect(canonicalForm(decodeForm('a=1&b[x]=2&b[y]=3'))).toBe(canonicalForm(decodeForm('b[y]=3&a=1&b[x]=2')));
    expect(canonicalForm(decodeForm('a=1'))).not.toBe(canonicalForm(decodeForm('a=2')));
  });
});
