import { useCallback } from 'react';
import { useFormat } from '../../i18n/format';
import { useConfig } from './config-context';

/** Writes a price given in minor units of the store currency. */
export type StoreMoney = (minor: number) => string;

/**
 * Plan prices as money in the current language: minor units of the store's currency (public settings),
 * with its decimals: 1299 in a dollar store is '$12.99', 1500 in a yen store '¥1,500'.
 */
export function useStoreMoney(): StoreMoney {
  const { currency } = useConfig();
  const format = useFormat();
  return useCallback((minor: number) => format.money(minor, currency), [format, currency]);
}
