/**
 * The spec's dashboard and custom-account messages (section 8). Re-declared here rather than
 * imported from shared/accounts.ts, whose zod schemas would otherwise load with the dashboard.
 * Keep them equal to ACCOUNT_MESSAGES there.
 */
export const ACCOUNT_UI_MESSAGES = {
  loadFailed: 'Failed to load your data. Please try again.',
  trialUsed: 'Trial Already Used',
  trialCreated: 'Trial account created successfully!',
  subscriptionCreated: 'Subscription created successfully!',
  createTrialFailed: 'Failed to create trial account',
  deleteConfirm: 'Are you sure you want to delete this account? This action cannot be undone.',
  deleted: 'Account deleted successfully',
  deleteFailed: 'Failed to delete account',
  linkCopied: 'Link copied to clipboard',
  subscriptionCopied: 'Subscription URL copied to clipboard!',
  copyFailed: 'Could not copy. Select the link and copy it yourself.',
  customCreated: 'VPN account created successfully!',
  customFailed: 'Failed to create VPN account',
  serversFailed: 'Failed to fetch available servers',
  paymentsUnavailable: 'Card payments are not available right now.',
  /** Shown when a pricing-page link names a plan that is no longer on sale. */
  planUnavailable: 'That plan is no longer on sale. Please choose one of the plans below.',
} as const;
