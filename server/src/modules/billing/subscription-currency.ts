import { DEFAULT_CURRENCY } from '../../../../shared/currencies.js';
import type { SubscriptionMetadata } from './billing.repo.js';

/** The currency a subscription's price is in: the store's when it was bought; US dollars for orders from before stores chose one. */
export function subscriptionCurrency(metadata: Pick<SubscriptionMetadata, 'currency'>): string {
  return metadata.currency ?? DEFAULT_CURRENCY;
}
