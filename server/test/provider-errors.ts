import { expect } from 'vitest';
import { PaymentProviderError } from '../src/payments/payment-driver.js';

/** Awaits a call that must fail with a PaymentProviderError, and returns it. */
export async function providerError(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PaymentProviderError);
  return err as PaymentProviderError;
}
