import { expect } from 'vitest';
import { PanelError } from '../src/panels/panel-driver.js';

/** Awaits a driver call that must fail with a PanelError of `kind`, and returns the error. */
export async function expectPanelError(promise: Promise<unknown>, kind: PanelError['kind']): Promise<PanelError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PanelError);
  expect((err as PanelError).kind).toBe(kind);
  return err as PanelError;
}
