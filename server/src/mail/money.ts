/** An amount in the currency's minor units (cents), as a customer reads it: `money(499, 'usd')` is "$4.99". */
export function money(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}
