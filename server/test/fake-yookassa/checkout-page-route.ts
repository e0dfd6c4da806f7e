/**
 * The confirmation page at each payment's `confirmation_url` (`/checkout/{paymentId}`): `GET` shows it,
 * `POST` is one of its buttons. Paying or declining sends the browser back to the payment's `return_url`
 * (303) once the notification is delivered; Leave goes back with nothing changed.
 */
import { confirmationPage, METHOD_OF, notFoundPage, PAGE_ACTIONS, statePage, type PageAction } from './checkout-page.js';
import { html, redirect, type HttpAnswer } from './http.js';
import type { ShopMethod } from './payment-request.js';
import type { Payments } from './payments.js';

export interface CheckoutPageDeps {
  shopId: string;
  payments: Payments;
  year(): number;
  /** What the handle's pay / decline do: resolve once the notification is delivered. */
  pay(paymentId: string, method: ShopMethod): Promise<void>;
  decline(paymentId: string): Promise<void>;
}

/** `GET`/`POST /checkout/:paymentId`. `readForm` reads the posted form. */
export async function handleCheckoutPage(
  method: string,
  paymentId: string,
  readForm: () => Promise<URLSearchParams>,
  deps: CheckoutPageDeps,
): Promise<HttpAnswer> {
  const record = deps.payments.get(paymentId);
  if (!record) return html(404, notFoundPage());
  const awaiting = record.status === 'pending' && record.request.confirmation !== undefined;
  const show = (status = 200, problem?: string): HttpAnswer =>
    awaiting ? html(status, confirmationPage(record, deps.shopId, deps.year(), problem)) : html(status, statePage(record, deps.shopId));
  if (method === 'GET') return show();
  if (method !== 'POST') return { status: 405, body: '', headers: { allow: 'GET, POST' } };

  const action = (await readForm()).get('action') as PageAction | null;
  if (!action || !PAGE_ACTIONS.includes(action)) return show(400, 'Choose one of the buttons.');
  if (!awaiting) return show(409);
  const returnUrl = record.request.confirmation!.returnUrl;
  const payWith = METHOD_OF[action];
  if (payWith) {
    const preset = record.request.presetMethod;
    if (preset && preset !== payWith) return show(400, 'This payment can only be paid with the method shown.');
    await deps.pay(paymentId, payWith);
  } else if (action === 'decline') {
    await deps.decline(paymentId);
  }
  return redirect(returnUrl);
}
