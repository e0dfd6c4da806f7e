/**
 * What a sale is on record, for every module that reads or is told about one: the subscription (what was bought),
 * its transactions (each payment) and the states a transaction moves through. Billing writes them (billing.repo.ts);
 * the wallet and referrals move credit with them. Types and the state table only: nothing here reaches a database.
 */
export type {
  CardPlanChange,
  CheckoutKind,
  NewCheckout,
  OrderPromo,
  ReviewReason,
  StoreCharge,
  SubscriptionMetadata,
  SubscriptionRecord,
  TransactionMetadata,
  TransactionRecord,
  TransactionTransitionListener,
  TrialConversion,
} from './order-records.js';
export { TRANSACTION_TRANSITIONS, sourcesOf, targetOf, type TransactionEvent } from './transaction-states.js';
export { SUBSCRIPTION_TRANSITIONS, movesOf, subscriptionStatusAfter, type SubscriptionEvent } from './subscription-states.js';
