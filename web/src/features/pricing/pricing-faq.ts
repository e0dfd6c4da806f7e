export interface FaqEntry {
  question: string;
  answer: string;
}

/** The pricing page's questions and answers (the facts come from the spec's business constants). */
export const PRICING_FAQ: readonly FaqEntry[] = [
  {
    question: 'Can I get a refund?',
    answer:
      'Yes. Every plan comes with a 30-day money-back guarantee: ask for a refund within 30 days of your purchase and you get your money back in full, no questions asked.',
  },
  {
    question: 'Does my subscription renew automatically?',
    answer:
      'Yes. Subscriptions renew automatically at the end of each billing period unless you cancel before then. If you cancel, your plan stays active until the end of the period you have already paid for.',
  },
  {
    question: 'How many devices can I use?',
    answer:
      'As many as you like. One subscription covers every phone, laptop, desktop and tablet you own, on Windows, macOS, Linux, Android and iOS. The extra protection in Plus and Complete covers up to 10 devices.',
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
