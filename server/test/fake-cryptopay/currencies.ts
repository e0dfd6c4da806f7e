/**
 * What the fake accepts and the fixed rates it pays at. The lists are the ones the Crypto Pay docs give
 * (the real lists change often; a driver should read `getCurrencies`, which answers these).
 */
import { fixed, type Fixed } from './amounts.js';

export type Network = 'mainnet' | 'testnet';

interface AssetInfo {
  code: string;
  name: string;
  /** How many units one US dollar buys at the fake's fixed rate. */
  perUsd: Fixed;
  /** Places a paid amount is rounded up to (a payer is never asked for less than the price). */
  places: number;
  isStablecoin: boolean;
  isBlockchain: boolean;
  url: string;
  /** JET exists on testnet only. */
  testnetOnly?: boolean;
}

/**
 * The fake's crypto rates, in units per US dollar (so TON 0.2 means 1 TON = 5 USD). Fixed on purpose:
 * tests can work out every `paid_amount` by hand.
 */
export const ASSET_RATES_PER_USD = {
  USDT: '1',
  USDC: '1',
  TON: '0.2',
  BTC: '0.00001',
  ETH: '0.0004',
  LTC: '0.01',
  BNB: '0.002',
  TRX: '4',
  JET: '100',
} as const;

/** The fake's fiat rates, in units per US dollar (RUB 90: 1 USDT = 90 RUB). */
export const FIAT_RATES_PER_USD = {
  USD: '1',
  EUR: '0.9',
  RUB: '90',
  BYN: '3.2',
  UAH: '40',
  GBP: '0.8',
  CNY: '7',
  KZT: '500',
  UZS: '12500',
  GEL: '2.7',
  TRY: '32',
  AMD: '400',
  THB: '35',
  INR: '85',
  BRL: '5',
  IDR: '16000',
  AZN: '1.7',
  AED: '3.6',
  PLN: '4',
  ILS: '3.7',
  KGS: '87',
  TJS: '11',
} as const;

/** The share of a payment Crypto Pay keeps from the app, in percent (REAL-1: 0.078 of 2.6 USDT). */
export const FEE_PERCENT = 3;
export const FEE_RATE = fixed(String(FEE_PERCENT / 100));

const ASSETS: readonly AssetInfo[] = [
  { code: 'USDT', name: 'Tether', places: 2, isStablecoin: true, isBlockchain: false, url: 'https://tether.to/' },
  { code: 'TON', name: 'Toncoin', places: 4, isStablecoin: false, isBlockchain: true, url: 'https://ton.org/' },
  { code: 'BTC', name: 'Bitcoin', places: 8, isStablecoin: false, isBlockchain: true, url: 'https://bitcoin.org/' },
  { code: 'ETH', name: 'Ethereum', places: 6, isStablecoin: false, isBlockchain: true, url: 'https://ethereum.org/' },
  { code: 'LTC', name: 'Litecoin', places: 6, isStablecoin: false, isBlockchain: true, url: 'https://litecoin.org/' },
  { code: 'BNB', name: 'Binance Coin', places: 6, isStablecoin: false, isBlockchain: true, url: 'https://bnbchain.org/' },
  { code: 'TRX', name: 'TRON', places: 2, isStablecoin: false, isBlockchain: true, url: 'https://tron.network/' },
  { code: 'USDC', name: 'USD Coin', places: 2, isStablecoin: true, isBlockchain: false, url: 'https://www.circle.com/usdc' },
  { code: 'JET', name: 'JetTon', places: 2, isStablecoin: false, isBlockchain: false, url: 'https://jetton.app/', testnetOnly: true },
].map((asset) => ({ ...asset, perUsd: fixed(ASSET_RATES_PER_USD[asset.code as keyof typeof ASSET_RATES_PER_USD]) }));

const FIAT_NAMES: Record<keyof typeof FIAT_RATES_PER_USD, string> = {
  USD: 'US Dollar',
  EUR: 'Euro',
  RUB: 'Russian Ruble',
  BYN: 'Belarusian Ruble',
  UAH: 'Ukrainian Hryvnia',
  GBP: 'British Pound',
  CNY: 'Chinese Yuan',
  KZT: 'Kazakhstani Tenge',
  UZS: 'Uzbekistani Som',
  GEL: 'Georgian Lari',
  TRY: 'Turkish Lira',
  AMD: 'Armenian Dram',
  THB: 'Thai Baht',
  INR: 'Indian Rupee',
  BRL: 'Brazilian Real',
  IDR: 'Indonesian Rupiah',
  AZN: 'Azerbaijani Manat',
  AED: 'UAE Dirham',
  PLN: 'Polish Zloty',
  ILS: 'Israeli New Shekel',
  KGS: 'Kyrgyzstani Som',
  TJS: 'Tajikistani Somoni',
};

/** The asset codes the network has, in the docs' order (what a fiat invoice accepts by default). */
export const assetCodesOf = (network: Network): string[] => ASSETS.filter((a) => network === 'testnet' || !a.testnetOnly).map((a) => a.code);

export const isFiat = (code: string): code is keyof typeof FIAT_RATES_PER_USD => Object.hasOwn(FIAT_RATES_PER_USD, code);

function assetInfo(code: string): AssetInfo {
  const asset = ASSETS.find((a) => a.code === code);
  if (!asset) throw new Error(`fake Crypto Pay: no asset ${code}`);
  return asset;
}

export const assetPerUsd = (code: string): Fixed => assetInfo(code).perUsd;
export const assetPlaces = (code: string): number => assetInfo(code).places;
export const fiatPerUsd = (code: keyof typeof FIAT_RATES_PER_USD): Fixed => fixed(FIAT_RATES_PER_USD[code]);

/** `getCurrencies`' result: the network's assets, then the fiat currencies. */
export function currenciesOf(network: Network): Array<Record<string, unknown>> {
  const assets = ASSETS.filter((a) => network === 'testnet' || !a.testnetOnly).map((a) => ({
    is_blockchain: a.isBlockchain,
    is_stablecoin: a.isStablecoin,
    is_fiat: false,
    name: a.name,
    code: a.code,
    url: a.url,
    decimals: a.places,
  }));
  const fiats = Object.entries(FIAT_NAMES).map(([code, name]) => ({ is_blockchain: false, is_stablecoin: false, is_fiat: true, name, code, decimals: 2 }));
  return [...assets, ...fiats];
}
