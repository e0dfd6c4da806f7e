/** The JSON objects the fake answers and sends, field for field as the Greenfield swagger names them. */

export type InvoiceStatus = 'New' | 'Processing' | 'Expired' | 'Invalid' | 'Settled';
export type InvoiceAdditionalStatus = 'None' | 'PaidLate' | 'PaidPartial' | 'Marked' | 'Invalid' | 'PaidOver';
export type PaymentStatus = 'Invalid' | 'Processing' | 'Settled';

/** CheckoutOptions as an invoice carries them. */
export interface CheckoutOptionsObject {
  speedPolicy: 'HighSpeed' | 'MediumSpeed' | 'LowSpeed' | 'LowMediumSpeed';
  paymentMethods: string[];
  defaultPaymentMethod: string | null;
  lazyPaymentMethods: boolean;
  expirationMinutes: number;
  monitoringMinutes: number;
  paymentTolerance: number;
  /** The template as given: `{InvoiceId}`, `{OrderId}` and `{Status}` are filled in at redirect time. */
  redirectURL: string | null;
  redirectAutomatically: boolean;
  defaultLanguage: string | null;
}

/** InvoiceData. */
export interface InvoiceObject {
  id: string;
  storeId: string;
  amount: string;
  paidAmount: string;
  currency: string;
  type: 'Standard' | 'TopUp';
  checkoutLink: string;
  createdTime: number;
  expirationTime: number;
  monitoringExpiration: number;
  status: InvoiceStatus;
  additionalStatus: InvoiceAdditionalStatus;
  availableStatusesForManualMarking: InvoiceStatus[];
  archived: boolean;
  metadata: Record<string, unknown>;
  checkout: CheckoutOptionsObject;
  receipt: { enabled: boolean; showQR: boolean; showPayments: boolean };
}

/** Payment (in payment methods and in InvoiceReceivedPayment / InvoicePaymentSettled webhooks). */
export interface PaymentObject {
  id: string;
  receivedDate: number;
  value: string;
  fee: string;
  status: PaymentStatus;
  destination: string;
}

/** InvoicePaymentMethodDataModel. */
export interface PaymentMethodObject {
  activated: boolean;
  paymentMethodId: string;
  currency: string;
  destination: string;
  paymentLink: string;
  rate: string;
  paymentMethodPaid: string;
  totalPaid: string;
  due: string;
  amount: string;
  paymentMethodFee: string;
  payments: PaymentObject[];
  additionalData: Record<string, unknown>;
}

/** PullPaymentData (what `POST …/refund` answers). */
export interface PullPaymentObject {
  id: string;
  name: string;
  description: string | null;
  currency: string;
  amount: string;
  BOLT11Expiration: string;
  autoApproveClaims: boolean;
  archived: boolean;
  startsAt: number;
  expiresAt: number | null;
  viewLink: string;
  /** Not in the API's answer: which invoice the refund is for (kept by the fake for tests). */
  invoiceId?: string;
}

/** StoreData, the fields the fake has. */
export interface StoreObject {
  id: string;
  name: string;
  website: string | null;
  defaultCurrency: string;
  invoiceExpiration: number;
  monitoringExpiration: number;
  speedPolicy: CheckoutOptionsObject['speedPolicy'];
  paymentTolerance: number;
  archived: boolean;
  anyoneCanCreateInvoice: boolean;
  redirectAutomatically: boolean;
  defaultPaymentMethod: string;
  lazyPaymentMethods: boolean;
}
