/**
 * Named places between the steps of provisioning where a test can have the server die at once (kill -9),
 * to prove that a restart leaves nothing stuck. A point fires only when the process runs with
 * `NODE_ENV=test` and `CRASH_AT` names it; in any other process `crashPoint` does nothing. These two
 * variables are read here, not in config.ts, on purpose: they are test machinery, not configuration.
 */
export const CRASH_POINTS = [
  /** The account row is saved (suspended), nothing else. */
  'account:after-insert',
  /** A card or crypto order: its rows (and the referral credit it spends) are written; the provider has not been asked. */
  'checkout:after-order',
  /** Paid: the provisioning job has started, nothing recorded yet. */
  'fulfil:before-provision',
  /** The row names the server and username about to be created; the panel has not been called. */
  'provision:before-create',
  /** The panel user exists (with our marker); the row still waits. */
  'provision:after-create',
  /** Request path: the row is provisioned (and the trial marked used); the answer is not sent yet. */
  'account:after-save',
  /** Paid: the row is provisioned and the order fulfilled; the job is not marked done yet. */
  'fulfil:after-save',
  /** A renewal: the panel user has its new expiry; nothing is recorded yet. */
  'renew:after-extend',
  /** A refund: the provider has made it; the ledger does not know yet. */
  'refund:after-provider',
  /** A renewal this server charges: the saved method is charged; nothing of the payment is recorded yet. */
  'store-renewal:after-charge',
  /** A plan change's order is written (the account locked, its terms decided again); the provider has not been asked. */
  'plan-change:after-order',
] as const;

export type CrashPoint = (typeof CRASH_POINTS)[number];

const armed: string | undefined = process.env.NODE_ENV === 'test' ? process.env.CRASH_AT : undefined;

/** Kills this process on the spot (SIGKILL: no handler, no flush, no graceful close) if `point` is armed. */
export async function crashPoint(point: CrashPoint): Promise<void> {
  if (armed !== point) return;
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL is delivered at once; never carry on past the point meanwhile.
  await new Promise<never>(() => {});
}
