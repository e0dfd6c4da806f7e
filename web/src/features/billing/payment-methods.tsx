import type { ComponentType, SVGProps } from 'react';
import type { PaymentMethod } from '../../../../shared/billing-schemas.js';
import { CardIcon, CoinIcon, FastPayIcon, GemIcon, WalletIcon } from '../../components/content/content-icons';

/**
 * How each payment method is shown to a customer: its icon, its pay button's message (with the price, and
 * without it for a renewal whose plan is off sale), and the note that says who takes the money.
 */
export interface MethodPresentation {
  Icon: ComponentType<SVGProps<SVGSVGElement> & { className?: string }>;
  /** Its name in lists (the transaction history, the wallet's top-up). */
  name: string;
  payWithPrice: string;
  pay: string;
  note: string;
}

export const PAYMENT_METHOD_PRESENTATION: Record<PaymentMethod, MethodPresentation> = {
  card: {
    Icon: CardIcon,
    name: 'pricing.method.card',
    payWithPrice: 'pricing.payment.payCardPrice',
    pay: 'pricing.payment.payCard',
    note: 'pricing.payment.cardNote',
  },
  crypto: {
    Icon: CoinIcon,
    name: 'pricing.method.crypto',
    payWithPrice: 'pricing.payment.payCryptoPrice',
    pay: 'pricing.payment.payCrypto',
    note: 'pricing.payment.cryptoNote',
  },
  yookassa: {
    Icon: FastPayIcon,
    name: 'pricing.method.yookassa',
    payWithPrice: 'pricing.payment.payYookassaPrice',
    pay: 'pricing.payment.payYookassa',
    note: 'pricing.payment.yookassaNote',
  },
  cryptopay: {
    Icon: GemIcon,
    name: 'pricing.method.cryptopay',
    payWithPrice: 'pricing.payment.payCryptopayPrice',
    pay: 'pricing.payment.payCryptopay',
    note: 'pricing.payment.cryptopayNote',
  },
  stars: {
    Icon: GemIcon,
    name: 'pricing.method.stars',
    payWithPrice: 'pricing.payment.payStarsPrice',
    pay: 'pricing.payment.payStars',
    note: 'pricing.payment.starsNote',
  },
  wallet: {
    Icon: WalletIcon,
    name: 'pricing.method.wallet',
    payWithPrice: 'pricing.payment.payWalletPrice',
    pay: 'pricing.payment.payWallet',
    note: 'pricing.payment.walletNote',
  },
};
