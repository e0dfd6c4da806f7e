/**
 * The spec's dashboard and custom-account messages (section 8), as message ids of the `account`
 * catalogue, whose English is the spec's text (ACCOUNT_MESSAGES in shared/accounts.ts: keep them
 * equal). Show one with `_(ACCOUNT_UI_MESSAGES.loadFailed)`.
 */
export const ACCOUNT_UI_MESSAGES = {
  loadFailed: 'account.messages.loadFailed',
  trialUsed: 'account.messages.trialUsed',
  trialCreated: 'account.messages.trialCreated',
  subscriptionCreated: 'account.messages.subscriptionCreated',
  createTrialFailed: 'account.messages.createTrialFailed',
  deleteConfirm: 'account.messages.deleteConfirm',
  deleted: 'account.messages.deleted',
  deleteFailed: 'account.messages.deleteFailed',
  linkCopied: 'account.messages.linkCopied',
  subscriptionCopied: 'account.messages.subscriptionCopied',
  copyFailed: 'account.messages.copyFailed',
  customCreated: 'account.messages.customCreated',
  customFailed: 'account.messages.customFailed',
  serversFailed: 'account.messages.serversFailed',
  paymentsUnavailable: 'account.messages.paymentsUnavailable',
  /** Shown when a pricing-page link names a plan that is no longer on sale. */
  planUnavailable: 'account.messages.planUnavailable',
  /** Shown when a free-trial form or button brings back a customer whose trial is used. */
  trialAlreadyUsed: 'account.messages.trialAlreadyUsed',
} as const;

export type AccountUiMessageId = (typeof ACCOUNT_UI_MESSAGES)[keyof typeof ACCOUNT_UI_MESSAGES];
