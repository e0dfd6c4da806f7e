export interface FaqEntry {
  /** Message ids (pricing namespace). */
  questionId: string;
  answerId: string;
  /** Shown only while the store offers it (site flags: `data-claim`). */
  claim?: 'trial' | 'payment';
  /** The answer without the free trial, shown while the store promises none (TrialClaim). */
  answerNoTrialId?: string;
}

/** The pricing page's questions and answers (prices are on the plan cards, which come from the plans). */
export const PRICING_FAQ: readonly FaqEntry[] = [
  { questionId: 'pricing.faq.refund.question', answerId: 'pricing.faq.refund.answer' },
  { questionId: 'pricing.faq.renewal.question', answerId: 'pricing.faq.renewal.answer' },
  { questionId: 'pricing.faq.cancel.question', answerId: 'pricing.faq.cancel.answer' },
  { questionId: 'pricing.faq.devices.question', answerId: 'pricing.faq.devices.answer' },
  { questionId: 'pricing.faq.payment.question', answerId: 'pricing.faq.payment.answer', claim: 'payment' },
  {
    questionId: 'pricing.faq.subscriptionLink.question',
    answerId: 'pricing.faq.subscriptionLink.answer',
    answerNoTrialId: 'pricing.faq.subscriptionLink.answerNoTrial',
  },
  { questionId: 'pricing.faq.freeTrial.question', answerId: 'pricing.faq.freeTrial.answer', claim: 'trial' },
];
