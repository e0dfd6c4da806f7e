/** Creates or extends the account a succeeded payment bought (see fulfilment.ts). */
export const PROVISION_PAID_ACCOUNT = 'provision_paid_account';
/** A paid order is never given up on: with the back-off capped, this is weeks of retries (the admin sees it under System). */
export const PROVISION_MAX_ATTEMPTS = 5000;
