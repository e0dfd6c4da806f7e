/**
 * The account and payment log's entries in words. The server writes each entry as a step name and a
 * flat object of details (server/src/modules/{accounts,billing,panel-sync}: `accounts.insertLog`):
 * provisioning (`create_panel_user`), the account's life (`account_renewed`), and payments (`payment_refunded`,
 * `payment_disputed`, …). Known steps and keys have a message id; anything else is shown as it came.
 */

/** Each step the server logs, by its message id in the adminSettings catalogue. */
const STEP_LABEL_IDS: Readonly<Record<string, string>> = {
  select_server: 'adminSettings.logs.step.selectServer',
  create_panel_user: 'adminSettings.logs.step.createPanelUser',
  account_created: 'adminSettings.logs.step.accountCreated',
  account_renewed: 'adminSettings.logs.step.accountRenewed',
  account_paused: 'adminSettings.logs.step.accountPaused',
  account_paused_unpaid: 'adminSettings.logs.step.accountPausedUnpaid',
  paid_period_synced: 'adminSettings.logs.step.paidPeriodSynced',
  delete_panel_user: 'adminSettings.logs.step.deletePanelUser',
  delete_account: 'adminSettings.logs.step.deleteAccount',
  panel_user_missing: 'adminSettings.logs.step.panelUserMissing',
  stuck_account_removed: 'adminSettings.logs.step.stuckAccountRemoved',
  stuck_account_adopted: 'adminSettings.logs.step.stuckAccountAdopted',
  checkout_started: 'adminSettings.logs.step.checkoutStarted',
  payment_succeeded: 'adminSettings.logs.step.paymentSucceeded',
  payment_failed: 'adminSettings.logs.step.paymentFailed',
  payment_needs_review: 'adminSettings.logs.step.paymentNeedsReview',
  payment_refunded: 'adminSettings.logs.step.paymentRefunded',
  refund_failed: 'adminSettings.logs.step.refundFailed',
  payment_disputed: 'adminSettings.logs.step.paymentDisputed',
  dispute_won: 'adminSettings.logs.step.disputeWon',
  dispute_lost: 'adminSettings.logs.step.disputeLost',
  renewal_paid: 'adminSettings.logs.step.renewalPaid',
  renewal_failed: 'adminSettings.logs.step.renewalFailed',
  renewal_held: 'adminSettings.logs.step.renewalHeld',
  renewal_refunded: 'adminSettings.logs.step.renewalRefunded',
  subscription_canceled: 'adminSettings.logs.step.subscriptionCanceled',
  traffic_reset_monthly: 'adminSettings.logs.step.trafficResetMonthly',
  grace_data_limit: 'adminSettings.logs.step.graceDataLimit',
};

/** The message id of a step's name, or undefined for a step this list does not know (shown as it is). */
export function logStepLabelId(step: string): string | undefined {
  return Object.hasOwn(STEP_LABEL_IDS, step) ? STEP_LABEL_IDS[step] : undefined;
}

/** A detail's value, by how it reads: an amount of money, a moment, yes or no, a record's id (shortened), or text. */
export type LogValue =
  | { kind: 'money'; minor: number; currency?: string }
  | { kind: 'date'; iso: string }
  | { kind: 'yesNo'; value: boolean }
  | { kind: 'id'; id: string; short: string }
  | { kind: 'text'; text: string };

/** One detail: its label (a message id, or the raw key when the key is not known) and its value. */
export interface LogField {
  key: string;
  labelId?: string;
  value: LogValue;
}

type KeyKind = 'money' | 'date' | 'id' | 'text' | 'yesNo';

/** Each key the server writes: its label's message id and how its value reads. */
const KEYS: Readonly<Record<string, { labelId: string; kind: KeyKind }>> = {
  server: { labelId: 'adminSettings.logs.key.server', kind: 'text' },
  serverId: { labelId: 'adminSettings.logs.key.server', kind: 'id' },
  username: { labelId: 'adminSettings.logs.key.username', kind: 'text' },
  reason: { labelId: 'adminSettings.logs.key.reason', kind: 'text' },
  message: { labelId: 'adminSettings.logs.key.message', kind: 'text' },
  error: { labelId: 'adminSettings.logs.key.message', kind: 'text' },
  kind: { labelId: 'adminSettings.logs.key.kind', kind: 'text' },
  amount: { labelId: 'adminSettings.logs.key.amount', kind: 'money' },
  amountRefunded: { labelId: 'adminSettings.logs.key.amountRefunded', kind: 'money' },
  amountPaid: { labelId: 'adminSettings.logs.key.amountPaid', kind: 'money' },
  amountOrdered: { labelId: 'adminSettings.logs.key.amountOrdered', kind: 'money' },
  full: { labelId: 'adminSettings.logs.key.fullRefund', kind: 'yesNo' },
  expiresAt: { labelId: 'adminSettings.logs.key.expiresAt', kind: 'date' },
  periodEnd: { labelId: 'adminSettings.logs.key.periodEnd', kind: 'date' },
  enabled: { labelId: 'adminSettings.logs.key.enabled', kind: 'yesNo' },
  alreadyGone: { labelId: 'adminSettings.logs.key.alreadyGone', kind: 'yesNo' },
  trial: { labelId: 'adminSettings.logs.key.trial', kind: 'yesNo' },
  atPeriodEnd: { labelId: 'adminSettings.logs.key.atPeriodEnd', kind: 'yesNo' },
  byAdmin: { labelId: 'adminSettings.logs.key.byAdmin', kind: 'yesNo' },
  transactionId: { labelId: 'adminSettings.logs.key.payment', kind: 'id' },
  paidByTransactionId: { labelId: 'adminSettings.logs.key.paidBy', kind: 'id' },
  subscriptionId: { labelId: 'adminSettings.logs.key.subscription', kind: 'id' },
  checkoutId: { labelId: 'adminSettings.logs.key.checkout', kind: 'id' },
  invoiceId: { labelId: 'adminSettings.logs.key.invoice', kind: 'id' },
  refundId: { labelId: 'adminSettings.logs.key.refund', kind: 'id' },
  disputeId: { labelId: 'adminSettings.logs.key.dispute', kind: 'id' },
  planId: { labelId: 'adminSettings.logs.key.plan', kind: 'id' },
  removedAccountId: { labelId: 'adminSettings.logs.key.removedAccount', kind: 'id' },
};

/** Ids are long (UUIDs, provider ids): the first characters tell entries apart; the whole id stays on hover. */
const SHORT_ID_LENGTH = 8;

function valueOf(kind: KeyKind | undefined, value: unknown, details: Record<string, unknown>, key: string): LogValue {
  if (kind === 'money' && typeof value === 'number') {
    // An amount paid in another currency than ordered names it (a crypto payment's review).
    const currency = key === 'amountPaid' && typeof details.currencyPaid === 'string' ? details.currencyPaid : undefined;
    return { kind: 'money', minor: value, ...(currency ? { currency } : {}) };
  }
  if (kind === 'date' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return { kind: 'date', iso: value };
  if (typeof value === 'boolean') return { kind: 'yesNo', value };
  if (kind === 'id' && (typeof value === 'string' || typeof value === 'number')) {
    const id = String(value);
    return { kind: 'id', id, short: id.length > SHORT_ID_LENGTH + 2 ? `${id.slice(0, SHORT_ID_LENGTH)}…` : id };
  }
  return { kind: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) };
}

/**
 * A log entry's details as labelled fields, in the order the server wrote them. Empty values are left
 * out, and so is what another field already says (a server's id beside its name, the currency of an amount).
 */
export function describeLogDetails(details: Record<string, unknown> | string | null | undefined): LogField[] {
  if (details === null || details === undefined) return [];
  if (typeof details === 'string') return details ? [{ key: '', value: { kind: 'text', text: details } }] : [];
  return Object.entries(details).flatMap(([key, value]): LogField[] => {
    if (value === null || value === undefined || value === '') return [];
    if (key === 'currencyPaid' && typeof details.amountPaid === 'number') return [];
    if (key === 'serverId' && typeof details.server === 'string') return [];
    const known = Object.hasOwn(KEYS, key) ? KEYS[key] : undefined;
    return [{ key, ...(known ? { labelId: known.labelId } : {}), value: valueOf(known?.kind, value, details, key) }];
  });
}
