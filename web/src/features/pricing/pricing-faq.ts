export interface FaqEntry {
  question: string;
  answer: string;
}

/** The pricing page's questions and answers (prices are on the plan cards, which come from the plans). */
export const PRICING_FAQ: readonly FaqEntry[] = [
  {
    question: 'Can I get a refund?',
    answer:
      'Yes. Every plan comes with a 30-day money-back guarantee: ask for a refund within 30 days of your purchase and you get your money back in full, no questions asked.',
  },
  {
    question: 'Does my plan renew automatically?',
    answer:
      'Only if its card says so. A plan that "renews automatically" is charged to your card again at the end of every period, at the same price, until you cancel; your dashboard shows the next renewal date and amount. A one-off plan ("billed once") is a single payment and we never charge your card again: when it is about to run out, press Renew on the account in your dashboard to pay for another period. Either way the account keeps its subscription link.',
  },
  {
    question: 'Do I need to cancel?',
    answer:
      'Only to stop a renewing plan. Press Cancel auto-renew on the account in your dashboard at any time: you keep the plan until the end of the period you have paid for and are not charged again (and you can resume before then). A one-off plan has nothing to cancel; it simply ends with its period. You can also delete a VPN account from your dashboard at any time.',
  },
  {
    question: 'How many devices can I use?',
    answer:
      'As many as you like. One subscription link works on every phone, laptop, desktop and tablet you own, on Windows, macOS, Linux, Android and iOS. The data a plan includes is shared by all of them; each plan card says how much it is.',
  },
  {
    question: 'How can I pay?',
    answer:
      'By credit or debit card, through our secure payment provider. Your card details go straight to the provider: we never see or store your card number.',
  },
  {
    question: 'What is a subscription link?',
    answer:
      'When you start the free trial or buy a plan, your dashboard shows a personal subscription link and a QR code. Import either into a VPN app such as Hiddify and it loads your servers and keeps them up to date. Keep the link private: anyone who has it can use your plan.',
  },
  {
    question: 'Is there a free trial?',
    answer:
      'Yes. Sign in with your e-mail address and claim the free trial from your dashboard. No credit card and no personal information needed.',
  },
];
