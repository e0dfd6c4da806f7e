import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic, paymentBody, RETURN_URL, SECRET_KEY, SHOP_ID, startKit, type Kit } from './test-kit.js';
import { WRONG_CREDENTIALS, type YookassaPayment, type YookassaRefund } from './index.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const OBJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HOUR = 60 * 60 * 1000;

/** A receipt for `value` RUB: one service line, the customer's email. */
const receiptFor = (value: string, overrides: Record<string, unknown> = {}) => ({
  customer: { email: 'buyer@example.com' },
  items: [
    { description: 'VPN, 1 month', quantity: 1, amount: { value, currency: 'RUB' }, vat_code: 1, payment_mode: 'full_payment', payment_subject: 'service' },
  ],
  ...overrides,
});

describe('the fake YooKassa', () => {
  let kit: Kit;
  beforeEach(async () => {
    kit = await startKit();
  });
  afterEach(async () => {
    await kit.close();
  });

  describe('authentication and routing', () => {
    it('answers 401 "Authorization header not found" without an Authorization header', async () => {
      const result = await kit.api('GET', '/me', { authorization: null });
      expect(result.status).toBe(401);
      expect(result.json).toEqual({ type: 'error', id: expect.any(String), code: 'invalid_credentials', description: 'Authorization header not found' });
    });

    it('answers 401 invalid_credentials naming Authorization for a wrong secret key or shop id, and creates nothing', async () => {
      for (const authorization of [basic(SHOP_ID, 'test_wrong'), basic('654321', SECRET_KEY)]) {
        const result = await kit.api('POST', '/payments', { authorization, body: paymentBody() });
        expect(result.status).toBe(401);
        expect(result.json).toEqual({
          type: 'error',
          id: expect.any(String),
          code: 'invalid_credentials',
          description: WRONG_CREDENTIALS,
          parameter: 'Authorization',
        });
      }
      expect(kit.fake.listPayments()).toEqual([]);
    });

    it('answers 405 for a wrong method on a known path, 415 for a POST that is not JSON, 404 for an unknown path or payment', async () => {
      const wrongMethod = await kit.api('GET', `/payments/${randomUUID()}/cancel`);
      expect(wrongMethod.status).toBe(405);
      expect(wrongMethod.headers.get('allow')).toBe('POST');
      const form = await kit.api('POST', '/payments', { body: 'amount=1', contentType: 'application/x-www-form-urlencoded' });
      expect(form.status).toBe(415);
      const unknownPath = await kit.api('GET', '/payouts');
      expect(unknownPath.status).toBe(404);
      const unknownPayment = await kit.api('GET', `/payments/${randomUUID()}`);
      expect(unknownPayment.status).toBe(404);
      expect(unknownPayment.json).toMatchObject({ type: 'error', code: 'not_found' });
      expect(kit.fake.listPayments()).toEqual([]);
    });

    it('describes a test shop on GET /me, with fiscalization only when the shop has it on', async () => {
      const plain = await kit.api('GET', '/me');
      expect(plain.json).toEqual({
        account_id: SHOP_ID,
        status: 'enabled',
        test: true,
        fiscalization_enabled: false,
        payment_methods: ['bank_card', 'yoo_money', 'sbp'],
      });
      const fiscal = await startKit({ fiscalization: true });
      try {
        expect((await fiscal.api('GET', '/me')).json).toMatchObject({ fiscalization_enabled: true, fiscalization: { enabled: true, provider: 'avanpost' } });
      } finally {
        await fiscal.close();
      }
    });
  });

  describe('Idempotence-Key', () => {
    it('refuses a POST without the key, or with one over 64 characters, and creates nothing', async () => {
      const missing = await kit.api('POST', '/payments', { body: paymentBody(), key: null });
      expect(missing.status).toBe(400);
      expect(missing.json).toMatchObject({ code: 'invalid_request', description: 'Idempotence key is empty' });
      const long = await kit.api('POST', '/payments', { body: paymentBody(), key: 'k'.repeat(65) });
      expect(long.status).toBe(400);
      expect(long.json).toMatchObject({
        code: 'invalid_request',
        description: expect.stringContaining('Idempotence key is too long'),
        parameter: 'Idempotence-Key',
      });
      expect((await kit.api('POST', '/payments', { body: paymentBody(), key: 'k'.repeat(64) })).status).toBe(200);
      expect(kit.fake.listPayments()).toHaveLength(1);
    });

    it('replays the first answer for the same key and body, and makes no second payment', async () => {
      const key = randomUUID();
      const first = await kit.createPayment({}, key);
      // The same body written differently is the same request.
      const reordered = await kit.api('POST', '/payments', { key, body: Object.fromEntries(Object.entries(paymentBody()).reverse()) });
      expect(reordered.status).toBe(200);
      expect(reordered.json).toEqual(first);
      expect(kit.fake.listPayments()).toHaveLength(1);
    });

    it('refuses the same key with another body, or on another endpoint: "Idempotence key duplicated"', async () => {
      const key = randomUUID();
      const payment = await kit.createPayment({}, key);
      const other = await kit.api('POST', '/payments', { key, body: paymentBody({ amount: { value: '299.00', currency: 'RUB' } }) });
      expect(other.status).toBe(400);
      expect(other.json).toEqual({
        type: 'error',
        id: expect.any(String),
        code: 'invalid_request',
        description: 'Idempotence key duplicated',
        parameter: 'Idempotence-Key',
      });
      const cancel = await kit.api('POST', `/payments/${payment.id}/cancel`, { key, body: {} });
      expect(cancel.json).toMatchObject({ description: 'Idempotence key duplicated' });
      expect(kit.fake.listPayments()).toHaveLength(1);
    });

    it('forgets a key 24 hours after its first use: the same request then makes a new payment', async () => {
      const key = randomUUID();
      const first = await kit.createPayment({}, key);
      kit.fake.advanceTime(24 * HOUR - 1000);
      expect((await kit.createPayment({}, key)).id).toBe(first.id);
      kit.fake.advanceTime(1000);
      const second = await kit.createPayment({}, key);
      expect(second.id).not.toBe(first.id);
      expect(kit.fake.listPayments()).toHaveLength(2);
    });

    it('keeps no 4xx answer under the key: the corrected request with the same key goes through', async () => {
      const key = randomUUID();
      const refused = await kit.api('POST', '/payments', { key, body: paymentBody({ amount: { value: '0.00', currency: 'RUB' } }) });
      expect(refused.status).toBe(400);
      expect((await kit.api('POST', '/payments', { key, body: paymentBody() })).status).toBe(200);
    });
  });

  describe('creating a payment', () => {
    it("starts a redirect payment pending, two-stage by default, with the fake's confirmation page and no paid fields", async () => {
      const payment = await kit.createPayment();
      expect(payment).toEqual({
        id: expect.stringMatching(OBJECT_ID),
        status: 'pending',
        amount: { value: '199.00', currency: 'RUB' },
        description: 'VPN, 1 month',
        recipient: { account_id: SHOP_ID, gateway_id: expect.any(String) },
        created_at: expect.stringMatching(ISO_MS),
        confirmation: { type: 'redirect', confirmation_url: `${kit.fake.url}/checkout/${payment.id}`, return_url: RETURN_URL },
        test: true,
        paid: false,
        refundable: false,
        metadata: { order_id: 'o-1' },
      });
      expect(payment.id).toHaveLength(36);
      expect(kit.fake.getPayment(payment.id)).toEqual(payment);
      expect((await kit.api('GET', `/payments/${payment.id}`)).json).toEqual(payment);
    });

    it.each([
      ['a zero amount', { amount: { value: '0.00', currency: 'RUB' } }, 'Payment amount is illegal', 'amount.value'],
      ['three decimals', { amount: { value: '1.005', currency: 'RUB' } }, 'Payment amount is illegal', 'amount.value'],
      ['an unknown currency', { amount: { value: '1.00', currency: 'XXX' } }, 'Currency code is illegal', 'amount.currency'],
      ['a currency the shop does not take', { amount: { value: '1.00', currency: 'USD' } }, 'Payment method is not available', undefined],
      ['a description over 128 characters', { description: 'd'.repeat(129) }, 'Description is too long. Max. length is 128', 'description'],
      [
        '17 metadata keys',
        { metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) },
        'Metadata object is limited to 16 keys',
        'metadata',
      ],
      [
        'a metadata key over 32 characters',
        { metadata: { ['k'.repeat(33)]: 'v' } },
        'The key names length in metadata object is limited to 32 characters',
        'metadata',
      ],
      [
        'a metadata value over 512 characters',
        { metadata: { note: 'v'.repeat(513) } },
        'The key values length in metadata object is limited to 512 characters',
        'metadata.note',
      ],
      ['a nested metadata object', { metadata: { router: { v: 1 } } }, 'Invalid request parameter', 'metadata.router'],
      [
        'two payment method fields',
        { payment_method_id: randomUUID(), payment_method_data: { type: 'bank_card' } },
        'Request should contain only one of: payment_method_data, payment_method_id, payment_token',
        undefined,
      ],
      ['an unknown payment method type', { payment_method_data: { type: 'gold_bars' } }, 'Illegal payment method type', 'payment_method_data.type'],
      ['a redirect without return_url', { confirmation: { type: 'redirect' } }, 'Return url is missing', 'confirmation.return_url'],
      ['no confirmation', { confirmation: undefined }, 'Confirmation is missing', 'confirmation'],
      ['a capture that is not a boolean', { capture: 'yes' }, 'Invalid request parameter', 'capture'],
    ])('refuses %s with 400 invalid_request, and creates nothing', async (_case, overrides, description, parameter) => {
      const result = await kit.api('POST', '/payments', { body: paymentBody(overrides) });
      expect(result.status).toBe(400);
      expect(result.json).toEqual({ type: 'error', id: expect.any(String), code: 'invalid_request', description, ...(parameter ? { parameter } : {}) });
      expect(kit.fake.listPayments()).toEqual([]);
    });

    it('takes another currency when the shop is set up for it', async () => {
      const euros = await startKit({ currencies: ['RUB', 'EUR'] });
      try {
        expect((await euros.createPayment({ amount: { value: '5', currency: 'EUR' } })).amount).toEqual({ value: '5.00', currency: 'EUR' });
      } finally {
        await euros.close();
      }
    });

    it('shows a payment_method_data preset as a pending method, and only that method on the page', async () => {
      const payment = await kit.createPayment({ payment_method_data: { type: 'sbp' } });
      expect(payment.payment_method).toEqual({ type: 'sbp', id: payment.id, saved: false, status: 'pending' });
      const page = await (await fetch(payment.confirmation!.confirmation_url)).text();
      expect(page).toContain('Pay with SBP');
      expect(page).not.toContain('Pay by card');
    });
  });

  describe('receipts (a shop with fiscalization on)', () => {
    let fiscal: Kit;
    beforeEach(async () => {
      fiscal = await startKit({ fiscalization: true });
    });
    afterEach(async () => {
      await fiscal.close();
    });

    it.each([
      ['missing', undefined, 'receipt'],
      ['without a customer contact', receiptFor('199.00', { customer: {} }), 'receipt.customer'],
      ['with items that do not add up to the payment', receiptFor('99.00'), 'receipt.items'],
      [
        'with a vat_code out of 1–12',
        receiptFor('199.00', { items: [{ description: 'VPN', quantity: 1, amount: { value: '199.00', currency: 'RUB' }, vat_code: 13 }] }),
        'receipt.items[0].vat_code',
      ],
      [
        'with a zero quantity',
        receiptFor('199.00', { items: [{ description: 'VPN', quantity: 0, amount: { value: '199.00', currency: 'RUB' }, vat_code: 1 }] }),
        'receipt.items[0].quantity',
      ],
      ['with a tax_system_code out of 1–6', receiptFor('199.00', { tax_system_code: 7 }), 'receipt.tax_system_code'],
    ])('refuses a payment whose receipt is %s: "Receipt is missing or illegal"', async (_case, receipt, parameter) => {
      const result = await fiscal.api('POST', '/payments', { body: paymentBody({ receipt }) });
      expect(result.status).toBe(400);
      expect(result.json).toMatchObject({ code: 'invalid_request', description: 'Receipt is missing or illegal', parameter });
    });

    it('accepts a receipt whose unit prices × quantities add up, and registers it when the payment succeeds', async () => {
      const receipt = receiptFor('199.00', {
        customer: { phone: '79000000000' },
        tax_system_code: 2,
        items: [
          { description: 'VPN, 1 month', quantity: 2, amount: { value: '49.50', currency: 'RUB' }, vat_code: 1 },
          { description: 'Dedicated IP', quantity: '1.00', amount: { value: '100.00', currency: 'RUB' }, vat_code: 11 },
        ],
      });
      const payment = await fiscal.createPayment({ receipt, capture: true });
      expect(payment.receipt_registration).toBe('pending');
      await fiscal.fake.pay(payment.id);
      expect(fiscal.fake.getPayment(payment.id)?.receipt_registration).toBe('succeeded');
      const refund = await fiscal.api('POST', '/refunds', { body: { payment_id: payment.id, amount: { value: '50.00', currency: 'RUB' } } });
      expect(refund.json).toMatchObject({ description: 'Receipt is missing or illegal', parameter: 'receipt' });
      const withReceipt = await fiscal.api('POST', '/refunds', {
        body: { payment_id: payment.id, amount: { value: '50.00', currency: 'RUB' }, receipt: receiptFor('50.00') },
      });
      expect(withReceipt.json).toMatchObject({ status: 'succeeded', receipt_registration: 'succeeded' });
    });
  });

  describe('paying on the page, capture and cancel', () => {
    it('a card payment with capture succeeds: saved card, income and refunded amounts, no confirmation left', async () => {
      const payment = await kit.createPayment({ capture: true, save_payment_method: true });
      await kit.fake.pay(payment.id);
      const paid = kit.fake.getPayment(payment.id)!;
      expect(paid).toMatchObject({
        status: 'succeeded',
        paid: true,
        refundable: true,
        captured_at: expect.stringMatching(ISO_MS),
        income_amount: { value: '192.04', currency: 'RUB' },
        refunded_amount: { value: '0.00', currency: 'RUB' },
        payment_method: {
          type: 'bank_card',
          id: payment.id,
          saved: true,
          status: 'active',
          title: 'Bank card *4444',
          card: {
            first6: '555555',
            last4: '4444',
            expiry_month: '12',
            expiry_year: expect.stringMatching(/^\d{4}$/),
            card_type: 'MasterCard',
            issuer_country: 'RU',
          },
        },
        authorization_details: { rrn: expect.any(String), auth_code: expect.any(String), three_d_secure: { applied: true } },
      });
      expect(paid).not.toHaveProperty('confirmation');
      expect(paid).not.toHaveProperty('expires_at');
      expect(kit.receiver.ofEvent('payment.succeeded').map((r) => r.payload?.object?.id)).toEqual([payment.id]);
    });

    it('SBP payments are not saved, even when asked to', async () => {
      const payment = await kit.createPayment({ capture: true, save_payment_method: true });
      await kit.fake.pay(payment.id, { method: 'sbp' });
      expect(kit.fake.getPayment(payment.id)?.payment_method).toMatchObject({ type: 'sbp', saved: false, status: 'inactive' });
    });

    it('a two-stage payment waits for capture until expires_at; a partial capture succeeds with the captured amount', async () => {
      const payment = await kit.createPayment();
      await kit.fake.pay(payment.id);
      const waiting = kit.fake.getPayment(payment.id)!;
      expect(waiting).toMatchObject({ status: 'waiting_for_capture', paid: true, refundable: false, expires_at: expect.stringMatching(ISO_MS) });
      expect(waiting).not.toHaveProperty('captured_at');
      const over = await kit.api('POST', `/payments/${payment.id}/capture`, { body: { amount: { value: '200.00', currency: 'RUB' } } });
      expect(over.json).toMatchObject({ code: 'invalid_request', description: 'Illegal amount for capture', parameter: 'amount' });
      const captured = await kit.api('POST', `/payments/${payment.id}/capture`, { body: { amount: { value: '150.00', currency: 'RUB' } } });
      expect(captured.json).toMatchObject({ status: 'succeeded', amount: { value: '150.00', currency: 'RUB' }, captured_at: expect.stringMatching(ISO_MS) });
      expect(captured.json).not.toHaveProperty('expires_at');
      await kit.fake.waitForDeliveries();
      expect(kit.receiver.received.map((r) => r.payload?.event)).toEqual(['payment.waiting_for_capture', 'payment.succeeded']);
    });

    it('captures only from waiting_for_capture, saying why not', async () => {
      const pending = await kit.createPayment();
      expect((await kit.api('POST', `/payments/${pending.id}/capture`, { body: {} })).json).toMatchObject({
        description: 'Payment can not be captured in current status.',
      });
      const auto = await kit.createPayment({ capture: true });
      await kit.fake.pay(auto.id);
      expect((await kit.api('POST', `/payments/${auto.id}/capture`, { body: {} })).json).toMatchObject({
        description: 'You can not capture payment with autocapture',
      });
    });

    it('cancels only a payment waiting for capture (merchant / canceled_by_merchant), keeping its saved method', async () => {
      const pending = await kit.createPayment();
      const refused = await kit.api('POST', `/payments/${pending.id}/cancel`, { body: {} });
      expect(refused.status).toBe(400);
      expect(refused.json).toMatchObject({ code: 'invalid_request', description: 'Payment can not be canceled in current status' });
      const auto = await kit.createPayment({ capture: true });
      expect((await kit.api('POST', `/payments/${auto.id}/cancel`, { body: {} })).json).toMatchObject({
        description: 'You can not cancel payment with autocapture',
      });

      const hold = await kit.createPayment({ save_payment_method: true, amount: { value: '1.00', currency: 'RUB' } });
      await kit.fake.pay(hold.id);
      // A cancel with no body at all, as the SDKs send it.
      const canceled = await kit.api('POST', `/payments/${hold.id}/cancel`);
      expect(canceled.status).toBe(200);
      expect(canceled.json).toMatchObject({
        status: 'canceled',
        paid: false,
        refundable: false,
        cancellation_details: { party: 'merchant', reason: 'canceled_by_merchant' },
        payment_method: { saved: true },
      });
    });

    it("decline and expire cancel a pending payment, with the bank's or YooKassa's reason", async () => {
      const declined = await kit.createPayment();
      await kit.fake.decline(declined.id);
      expect(kit.fake.getPayment(declined.id)).toMatchObject({
        status: 'canceled',
        paid: false,
        cancellation_details: { party: 'payment_network', reason: 'insufficient_funds' },
      });
      const expired = await kit.createPayment();
      await kit.fake.expire(expired.id);
      expect(kit.fake.getPayment(expired.id)?.cancellation_details).toEqual({ party: 'yoo_money', reason: 'expired_on_confirmation' });
      await expect(kit.fake.pay(expired.id)).rejects.toThrow(/canceled/);
    });

    it('advancing the clock cancels a payment left unconfirmed an hour, and one left uncaptured past expires_at', async () => {
      const unconfirmed = await kit.createPayment();
      const uncaptured = await kit.createPayment();
      await kit.fake.pay(uncaptured.id);
      kit.fake.advanceTime(HOUR);
      expect(kit.fake.getPayment(unconfirmed.id)?.cancellation_details).toEqual({ party: 'yoo_money', reason: 'expired_on_confirmation' });
      expect(kit.fake.getPayment(uncaptured.id)?.status).toBe('waiting_for_capture');
      kit.fake.advanceTime(7 * 24 * HOUR);
      expect(kit.fake.getPayment(uncaptured.id)?.cancellation_details).toEqual({ party: 'yoo_money', reason: 'expired_on_capture' });
      await kit.fake.waitForDeliveries();
      expect(kit.receiver.ofEvent('payment.canceled').map((r) => r.payload?.object?.id)).toEqual([unconfirmed.id, uncaptured.id]);
    });
  });

  describe('saved payment methods', () => {
    const charge = (methodId: string, overrides: Record<string, unknown> = {}) =>
      kit.api('POST', '/payments', {
        body: { amount: { value: '199.00', currency: 'RUB' }, capture: true, payment_method_id: methodId, description: 'Renewal', ...overrides },
      });

    it('charges a saved card at once: succeeded with capture, waiting_for_capture without, the method unchanged', async () => {
      const methodId = await kit.savedCardId();
      const succeeded = await charge(methodId);
      expect(succeeded.status).toBe(200);
      expect(succeeded.json).toMatchObject({ status: 'succeeded', paid: true, payment_method: { id: methodId, saved: true, type: 'bank_card' } });
      expect(succeeded.json).not.toHaveProperty('confirmation');
      expect((await charge(methodId, { capture: false })).json).toMatchObject({ status: 'waiting_for_capture' });
      await kit.fake.waitForDeliveries();
      expect(kit.receiver.ofEvent('payment.succeeded').map((r) => r.payload?.object?.id)).toContain(succeeded.json.id);
    });

    it('ends scripted charges canceled with the reason and its party; a revoked permission stays revoked', async () => {
      const methodId = await kit.savedCardId();
      kit.fake.scriptSavedCharges(methodId, ['insufficient_funds', 'card_expired', 'permission_revoked']);
      expect((await charge(methodId)).json).toMatchObject({
        status: 'canceled',
        paid: false,
        cancellation_details: { party: 'payment_network', reason: 'insufficient_funds' },
      });
      expect((await charge(methodId)).json).toMatchObject({ cancellation_details: { party: 'payment_network', reason: 'card_expired' } });
      expect((await charge(methodId)).json).toMatchObject({ cancellation_details: { party: 'yoo_money', reason: 'permission_revoked' } });
      expect((await charge(methodId)).json).toMatchObject({ status: 'canceled', cancellation_details: { reason: 'permission_revoked' } });
    });

    it('leaves a scripted pending charge pending until settled, then notifies', async () => {
      const methodId = await kit.savedCardId();
      kit.fake.scriptSavedCharges(methodId, ['pending', 'pending']);
      const first = (await charge(methodId)).json as YookassaPayment;
      const second = (await charge(methodId)).json as YookassaPayment;
      expect([first.status, second.status]).toEqual(['pending', 'pending']);
      await kit.fake.settle(first.id, 'succeeded');
      await kit.fake.settle(second.id, 'insufficient_funds');
      expect(kit.fake.getPayment(first.id)?.status).toBe('succeeded');
      expect(kit.fake.getPayment(second.id)?.cancellation_details).toEqual({ party: 'payment_network', reason: 'insufficient_funds' });
      expect(kit.receiver.received.slice(-2).map((r) => [r.payload?.event, r.payload?.object?.id])).toEqual([
        ['payment.succeeded', first.id],
        ['payment.canceled', second.id],
      ]);
    });

    it('refuses an unknown method id, and the id of a method that was not saved', async () => {
      expect((await charge(randomUUID())).json).toMatchObject({
        code: 'invalid_request',
        description: 'Payment method is not found',
        parameter: 'payment_method_id',
      });
      const unsaved = await kit.createPayment({ capture: true });
      await kit.fake.pay(unsaved.id);
      expect((await charge(unsaved.id)).json).toMatchObject({ code: 'invalid_request', description: 'Payment method is not saved' });
    });
  });

  describe('lists', () => {
    it('lists payments newest first, 10 to a page by default, following next_cursor to the last page', async () => {
      const made: string[] = [];
      for (let i = 0; i < 12; i++) made.push((await kit.createPayment({ metadata: { n: String(i) } })).id);
      const first = (await kit.api('GET', '/payments')).json;
      expect(first.type).toBe('list');
      expect(first.items.map((p: YookassaPayment) => p.id)).toEqual(made.slice(2).reverse());
      const second = (await kit.api('GET', `/payments?cursor=${first.next_cursor}`)).json;
      expect(second.items.map((p: YookassaPayment) => p.id)).toEqual(made.slice(0, 2).reverse());
      expect(second).not.toHaveProperty('next_cursor');
    });

    it('filters by status and created_at, and refuses a limit outside 1–100 or an unknown cursor', async () => {
      const old = await kit.createPayment();
      kit.fake.advanceTime(10 * 60 * 1000);
      const since = new Date(Date.parse(old.created_at) + 60_000).toISOString();
      const paid = await kit.createPayment({ capture: true });
      await kit.fake.pay(paid.id);
      await kit.createPayment();
      const succeeded = (await kit.api('GET', '/payments?status=succeeded')).json;
      expect(succeeded.items.map((p: YookassaPayment) => p.id)).toEqual([paid.id]);
      const recent = (await kit.api('GET', `/payments?limit=1&created_at.gte=${encodeURIComponent(since)}`)).json;
      expect(recent.items).toHaveLength(1);
      expect(recent.next_cursor).toEqual(expect.any(String));
      for (const query of ['limit=0', 'limit=101', 'cursor=nope', 'status=paid', 'created_at.gte=yesterday']) {
        expect((await kit.api('GET', `/payments?${query}`)).status).toBe(400);
      }
    });
  });

  describe('refunds', () => {
    const refund = (paymentId: string, value: string, extra: Record<string, unknown> = {}) =>
      kit.api('POST', '/refunds', { body: { payment_id: paymentId, amount: { value, currency: 'RUB' }, ...extra } });
    const paidPayment = async (): Promise<YookassaPayment> => {
      const payment = await kit.createPayment({ capture: true });
      await kit.fake.pay(payment.id);
      return payment;
    };

    it('refunds in parts, tracking refunded_amount and refundable, and refuses more than remains', async () => {
      const payment = await paidPayment();
      const first = await refund(payment.id, '99.00', { description: 'Partial', metadata: { ticket: 't-1' } });
      expect(first.json).toEqual({
        id: expect.stringMatching(OBJECT_ID),
        payment_id: payment.id,
        status: 'succeeded',
        created_at: expect.stringMatching(ISO_MS),
        amount: { value: '99.00', currency: 'RUB' },
        description: 'Partial',
        metadata: { ticket: 't-1' },
      });
      expect(kit.fake.getPayment(payment.id)).toMatchObject({ refunded_amount: { value: '99.00', currency: 'RUB' }, refundable: true });
      const over = await refund(payment.id, '100.01');
      expect(over.status).toBe(400);
      expect(over.json).toMatchObject({ code: 'invalid_request', parameter: 'amount' });
      expect((await refund(payment.id, '100.00')).json).toMatchObject({ status: 'succeeded' });
      expect(kit.fake.getPayment(payment.id)).toMatchObject({ refunded_amount: { value: '199.00', currency: 'RUB' }, refundable: false });
      expect((await refund(payment.id, '1.00')).json).toMatchObject({ description: 'Payment is already completely refunded', parameter: 'amount' });
      await kit.fake.waitForDeliveries();
      expect(kit.receiver.ofEvent('refund.succeeded')).toHaveLength(2);
    });

    it('refuses a refund of an unpaid payment, in another currency, or of an unknown payment', async () => {
      const pending = await kit.createPayment();
      expect((await refund(pending.id, '1.00')).json).toMatchObject({ description: 'Payment can not be refunded in current status.' });
      const paid = await paidPayment();
      expect((await kit.api('POST', '/refunds', { body: { payment_id: paid.id, amount: { value: '1.00', currency: 'EUR' } } })).json).toMatchObject({
        description: 'Currencies do not match',
      });
      expect((await refund(randomUUID(), '1.00')).json).toMatchObject({ code: 'invalid_request', parameter: 'payment_id' });
      expect(kit.fake.listRefunds()).toEqual([]);
    });

    it("holds a scripted pending refund's amount until it settles: succeeded notifies, canceled frees the amount", async () => {
      const payment = await paidPayment();
      kit.fake.scriptRefunds(['pending', 'pending']);
      const first = (await refund(payment.id, '150.00')).json as YookassaRefund;
      expect(first.status).toBe('pending');
      expect(kit.fake.getPayment(payment.id)?.refunded_amount).toEqual({ value: '0.00', currency: 'RUB' });
      expect((await refund(payment.id, '50.00')).json).toMatchObject({ description: 'Refund sum exceeded' });
      await kit.fake.settleRefund(first.id, 'canceled');
      expect(kit.fake.getRefund(first.id)).toMatchObject({
        status: 'canceled',
        cancellation_details: { party: expect.any(String), reason: expect.any(String) },
      });
      const second = (await refund(payment.id, '199.00')).json as YookassaRefund;
      await kit.fake.settleRefund(second.id, 'succeeded');
      expect(kit.fake.getPayment(payment.id)).toMatchObject({ refunded_amount: { value: '199.00', currency: 'RUB' }, refundable: false });
      expect(kit.receiver.ofEvent('refund.succeeded').map((r) => r.payload?.object?.id)).toEqual([second.id]);
    });

    it("reads a refund, and lists a payment's refunds newest first", async () => {
      const payment = await paidPayment();
      const other = await paidPayment();
      const a = (await refund(payment.id, '1.00')).json as YookassaRefund;
      await refund(other.id, '1.00');
      const b = (await refund(payment.id, '2.00')).json as YookassaRefund;
      expect((await kit.api('GET', `/refunds/${a.id}`)).json).toEqual(a);
      expect((await kit.api('GET', `/refunds/${randomUUID()}`)).status).toBe(404);
      const list = (await kit.api('GET', `/refunds?payment_id=${payment.id}`)).json;
      expect(list.items.map((r: YookassaRefund) => r.id)).toEqual([b.id, a.id]);
    });
  });

  describe('notifications', () => {
    it('POSTs unsigned JSON with the object as it was at the event, one attempt each', async () => {
      const payment = await kit.createPayment();
      await kit.fake.pay(payment.id);
      await kit.api('POST', `/payments/${payment.id}/capture`, { body: {} });
      await kit.fake.waitForDeliveries();
      const [waiting, succeeded] = kit.receiver.received;
      expect(waiting?.headers['content-type']).toBe('application/json');
      expect(Object.keys(waiting!.headers).filter((name) => /signature|sig|hmac/i.test(name))).toEqual([]);
      expect(JSON.parse(waiting!.body.toString('utf8'))).toEqual({
        type: 'notification',
        event: 'payment.waiting_for_capture',
        object: expect.objectContaining({ id: payment.id, status: 'waiting_for_capture' }),
      });
      expect(succeeded?.payload).toMatchObject({ event: 'payment.succeeded', object: { status: 'succeeded' } });
      expect(kit.fake.deliveries).toEqual([
        { event: 'payment.waiting_for_capture', objectId: payment.id, status: 200 },
        { event: 'payment.succeeded', objectId: payment.id, status: 200 },
      ]);
    });

    it('redelivers an earlier notification as it was, and posts a forged body', async () => {
      const payment = await kit.createPayment({ capture: true });
      await kit.fake.pay(payment.id);
      await kit.api('POST', '/refunds', { body: { payment_id: payment.id, amount: { value: '1.00', currency: 'RUB' } } });
      await kit.fake.waitForDeliveries();
      // Out of order: the payment's old notification after the refund's.
      expect(await kit.fake.redeliver(0)).toBe(200);
      expect(kit.receiver.received.map((r) => r.payload?.event)).toEqual(['payment.succeeded', 'refund.succeeded', 'payment.succeeded']);
      expect(kit.receiver.received[2]!.body).toEqual(kit.receiver.received[0]!.body);
      expect(await kit.fake.postNotification({ type: 'notification', event: 'payment.succeeded', object: { id: 'forged' } })).toBe(200);
      expect(kit.receiver.received.at(-1)?.payload?.object?.id).toBe('forged');
      expect(kit.fake.deliveries).toHaveLength(3);
    });

    it('records a refused or failed attempt without throwing, and keeps an undelivered notice for redelivery', async () => {
      kit.receiver.answerWith(500);
      const payment = await kit.createPayment();
      await kit.fake.pay(payment.id);
      expect(kit.fake.deliveries.at(-1)).toEqual({ event: 'payment.waiting_for_capture', objectId: payment.id, status: 500 });
      kit.fake.setWebhookUrl('http://127.0.0.1:9/nothing-listens');
      const other = await kit.createPayment();
      await kit.fake.decline(other.id);
      expect(kit.fake.deliveries.at(-1)).toEqual({ event: 'payment.canceled', objectId: other.id, status: 'error' });
      kit.fake.setWebhookUrl(kit.receiver.url);
      kit.receiver.answerWith(200);
      const quiet = await kit.createPayment({ capture: true });
      const received = kit.receiver.received.length;
      await kit.fake.pay(quiet.id, { deliver: false });
      expect(kit.receiver.received).toHaveLength(received);
      expect(kit.fake.sent.at(-1)).toMatchObject({ event: 'payment.succeeded', object: { id: quiet.id } });
      expect(await kit.fake.redeliver(kit.fake.sent.length - 1)).toBe(200);
    });
  });

  describe('the confirmation page', () => {
    const press = (url: string, action: string) => fetch(url, { method: 'POST', body: new URLSearchParams({ action }), redirect: 'manual' });

    it('says it is a fake and shows the shop, amount, description, labelled card fields and every button', async () => {
      const payment = await kit.createPayment({ save_payment_method: true });
      const response = await fetch(payment.confirmation!.confirmation_url);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const page = await response.text();
      expect(page).toContain('<html lang="en">');
      expect(page).toContain('fake YooKassa');
      for (const text of [
        SHOP_ID,
        '199.00 RUB',
        'VPN, 1 month',
        '5555 5555 5555 4444',
        'Pay by card',
        'Pay with SBP',
        'Decline',
        'Leave without paying',
        'will save the card',
      ]) {
        expect(page).toContain(text);
      }
      expect(page).toMatch(/<label>Card number <input [^>]*value="5555 5555 5555 4444"/);
    });

    it('Pay by card redirects to return_url once notified, saves the card, and the page then says it is paid', async () => {
      const payment = await kit.createPayment({ capture: true, save_payment_method: true });
      const response = await press(payment.confirmation!.confirmation_url, 'card');
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(RETURN_URL);
      expect(kit.receiver.ofEvent('payment.succeeded')).toHaveLength(1);
      expect(kit.fake.getPayment(payment.id)?.payment_method).toMatchObject({ type: 'bank_card', saved: true });
      expect(await (await fetch(payment.confirmation!.confirmation_url)).text()).toContain('This payment has been paid.');
      expect((await press(payment.confirmation!.confirmation_url, 'card')).status).toBe(409);
    });

    it('Pay with SBP, Decline and Leave each go back to return_url, doing what they say', async () => {
      const sbp = await kit.createPayment({ capture: true, save_payment_method: true });
      expect((await press(sbp.confirmation!.confirmation_url, 'sbp')).headers.get('location')).toBe(RETURN_URL);
      expect(kit.fake.getPayment(sbp.id)?.payment_method).toMatchObject({ type: 'sbp', saved: false });
      const declined = await kit.createPayment();
      expect((await press(declined.confirmation!.confirmation_url, 'decline')).status).toBe(303);
      expect(kit.fake.getPayment(declined.id)?.cancellation_details).toEqual({ party: 'payment_network', reason: 'insufficient_funds' });
      expect(await (await fetch(declined.confirmation!.confirmation_url)).text()).toContain('canceled (insufficient_funds)');
      const left = await kit.createPayment();
      expect((await press(left.confirmation!.confirmation_url, 'leave')).headers.get('location')).toBe(RETURN_URL);
      expect(kit.fake.getPayment(left.id)?.status).toBe('pending');
    });

    it('answers 404 for an unknown payment', async () => {
      expect((await fetch(`${kit.fake.url}/checkout/${randomUUID()}`)).status).toBe(404);
    });
  });

  describe('scripted failures', () => {
    it('failNext answers the error without doing the work; the retry with the same key goes through', async () => {
      kit.fake.failNext('POST', /^\/v3\/payments$/, { status: 500, code: 'internal_server_error' });
      const key = randomUUID();
      const failed = await kit.api('POST', '/payments', { key, body: paymentBody() });
      expect(failed.status).toBe(500);
      expect(failed.json).toEqual({ type: 'error', id: expect.any(String), code: 'internal_server_error', description: 'Internal server error' });
      expect(kit.fake.listPayments()).toEqual([]);
      expect((await kit.api('POST', '/payments', { key, body: paymentBody() })).status).toBe(200);
      kit.fake.failNext('GET', /^\/v3\/payments\//, { status: 429, code: 'too_many_requests' });
      expect((await kit.api('GET', `/payments/${kit.fake.listPayments()[0]!.id}`)).status).toBe(429);
    });

    it('loseNextAnswer makes the payment but closes the connection; the retry with the same key gets that payment', async () => {
      kit.fake.loseNextAnswer('POST', /^\/v3\/payments$/);
      const key = randomUUID();
      await expect(kit.api('POST', '/payments', { key, body: paymentBody() })).rejects.toThrow();
      expect(kit.fake.listPayments()).toHaveLength(1);
      const retried = await kit.createPayment({}, key);
      expect(retried.id).toBe(kit.fake.listPayments()[0]!.id);
      expect(kit.fake.listPayments()).toHaveLength(1);
      expect(kit.fake.requests.map((r) => [r.method, r.path, r.idempotenceKey])).toEqual([
        ['POST', '/v3/payments', key],
        ['POST', '/v3/payments', key],
      ]);
    });
  });
});
