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
      'No. Each plan is a single payment for its period, and we never charge your card again on our own. When a plan is about to run out, open your dashboard and press Renew on the account to pay for another period; the account keeps its subscription link.',
  },
  {
    question: 'Do I need to cancel?',
    answer:
      'No. There is nothing to cancel: a plan simply ends when its period is over unless you renew it. You can also delete a VPN account from your dashboard at any time.',
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
