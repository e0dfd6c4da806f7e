import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatAmount, startFakeStripe, type FakeStripe } from './index.js';
import { CANCEL_URL, caught, checkoutParams, SECRET_KEY, startReceiver, SUCCESS_URL, WEBHOOK_SECRET, type Receiver } from './test-kit.js';

describe('fake Stripe', () => {
  let fake: FakeStripe;
  let stripe: Stripe;
  const cleanups: Array<() => Promise<void>> = [];
  const client = (key = SECRET_KEY, config: Stripe.StripeConfig = {}) => new Stripe(key, { host: '127.0.0.1', port: fake.port, protocol: 'http', ...config });

  beforeEach(async () => {
    fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
    cleanups.push(() => fake.close());
    stripe = client();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const receiver = async (): Promise<Receiver> => {
    const r = await startReceiver();
    cleanups.push(() => r.close());
    fake.setWebhookUrl(r.url);
    return r;
  };

  describe('Checkout Sessions API', () => {
    it('creates and retrieves a session with the parameters the server sends', async () => {
      const before = Math.floor(Date.now() / 1000);
      const session = await stripe.checkout.sessions.create(checkoutParams());
      expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]{50,}$/);
      expect(session).toMatchObject({
        object: 'checkout.session',
        mode: 'payment',
        status: 'open',
        payment_status: 'unpaid',
        amount_subtotal: 1299,
        amount_total: 1299,
        currency: 'usd',
        customer_email: 'buyer@example.com',
        customer_details: null,
        client_reference_id: 'order_42',
        payment_intent: null,
        livemode: false,
        success_url: SUCCESS_URL,
        cancel_url: CANCEL_URL,
        metadata: { orderId: '42', planId: 'pro-monthly' },
        url: `${fake.url}/checkout/pay/${session.id}`,
      });
      expect(session.created).toBeGreaterThanOrEqual(before);
      expect(session.expires_at).toBe(session.created + 24 * 60 * 60);
      expect(session.lastResponse.requestId).toMatch(/^req_[A-Za-z0-9]{14}$/);
      expect(session.lastResponse.headers['stripe-version']).toBe(Stripe.API_VERSION);

      const retrieved = await stripe.checkout.sessions.retrieve(session.id);
      expect(retrieved).toEqual(session);
      expect(fake.getSession(session.id)).toEqual(session);
      expect(fake.listSessions().map((s) => s.id)).toEqual([session.id]);
      expect(fake.requests).toEqual([
        { method: 'POST', path: '/v1/checkout/sessions', idempotencyKey: expect.stringMatching(/^stripe-node-retry-/) },
        { method: 'GET', path: `/v1/checkout/sessions/${session.id}`, idempotencyKey: null },
      ]);
    });

    it('multiplies the unit amount by the quantity, lower-cases the currency and honours expires_at', async () => {
      const expiresAt = Math.floor(Date.now() / 1000) + 3600;
      const session = await stripe.checkout.sessions.create(
        checkoutParams({
          line_items: [{ price_data: { currency: 'EUR', unit_amount: 500, product_data: { name: 'Add-on' } }, quantity: 3 }],
          expires_at: expiresAt,
        }),
      );
      expect(session).toMatchObject({ amount_total: 1500, amount_subtotal: 1500, currency: 'eur', expires_at: expiresAt });
    });

    it('rejects bad parameters as Stripe does: 400 invalid_request_error naming the param, nothing created', async () => {
      const noSuccess = await caught(stripe.checkout.sessions.create(checkoutParams({ success_url: undefined })));
      expect(noSuccess).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(noSuccess).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', code: 'parameter_missing', param: 'success_url' });

      const fractional = await caught(
        stripe.checkout.sessions.create(
          checkoutParams({ line_items: [{ price_data: { currency: 'usd', unit_amount: 12.5, product_data: { name: 'x' } }, quantity: 1 }] }),
        ),
      );
      expect(fractional).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(fractional).toMatchObject({ param: 'line_items[0][price_data][unit_amount]', message: 'Invalid integer: 12.5' });

      const negative = await caught(
        stripe.checkout.sessions.create(
          checkoutParams({ line_items: [{ price_data: { currency: 'usd', unit_amount: -1, product_data: { name: 'x' } }, quantity: 1 }] }),
        ),
      );
      expect(negative).toMatchObject({ statusCode: 400, param: 'line_items[0][price_data][unit_amount]' });

      // The SDK's types require a currency, so send the request untyped.
      const noCurrency = await caught(
        stripe.rawRequest('POST', '/v1/checkout/sessions', {
          mode: 'payment',
          success_url: SUCCESS_URL,
          line_items: [{ price_data: { unit_amount: 1299, product_data: { name: 'x' } }, quantity: 1 }],
        }),
      );
      expect(noCurrency).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(noCurrency).toMatchObject({
        param: 'line_items[0][price_data][currency]',
        message: 'Missing required param: line_items[0][price_data][currency].',
      });

      const unknown = await caught(stripe.rawRequest('POST', '/v1/checkout/sessions', { ...checkoutParams(), colour: 'blue' }));
      expect(unknown).toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'colour' });

      const badEmail = await caught(stripe.checkout.sessions.create(checkoutParams({ customer_email: 'not-an-email' })));
      expect(badEmail).toMatchObject({ statusCode: 400, param: 'customer_email' });

      expect(fake.listSessions()).toEqual([]);
    });

    it('answers a wrong or missing API key with 401, which the SDK raises as StripeAuthenticationError', async () => {
      const error = await caught(client('sk_test_wrong_key_9999').checkout.sessions.create(checkoutParams()));
      expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
      expect(error).toMatchObject({ statusCode: 401, message: 'Invalid API Key provided: sk_test_**********9999' });

      const anonymous = await fetch(`${fake.url}/v1/checkout/sessions/cs_test_x`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('request-id')).toMatch(/^req_/);
      const body = (await anonymous.json()) as { error: { type: string; message: string } };
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toMatch(/^You did not provide an API key/);
      expect(fake.listSessions()).toEqual([]);
    });

    it('answers an unknown session id with 404 resource_missing', async () => {
      const error = await caught(stripe.checkout.sessions.retrieve('cs_test_nope'));
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({
        statusCode: 404,
        code: 'resource_missing',
        message: "No such checkout.session: 'cs_test_nope'",
      });
      expect(await caught(stripe.checkout.sessions.expire('cs_test_nope'))).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    });

    it('replays the first answer for a repeated Idempotency-Key and rejects the key with other parameters', async () => {
      const first = await stripe.checkout.sessions.create(checkoutParams(), { idempotencyKey: 'order-42-attempt-1' });
      const again = await stripe.checkout.sessions.create(checkoutParams(), { idempotencyKey: 'order-42-attempt-1' });
      expect(again.id).toBe(first.id);
      expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
      expect(fake.listSessions()).toHaveLength(1);

      const other = await caught(
        stripe.checkout.sessions.create(checkoutParams({ client_reference_id: 'order_43' }), { idempotencyKey: 'order-42-attempt-1' }),
      );
      expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
      expect(other).toMatchObject({ statusCode: 400 });
      expect(fake.listSessions()).toHaveLength(1);

      const fresh = await stripe.checkout.sessions.create(checkoutParams(), { idempotencyKey: 'order-42-attempt-2' });
      expect(fresh.id).not.toBe(first.id);
      expect(fake.listSessions()).toHaveLength(2);
      expect(fake.requests.map((r) => r.idempotencyKey)).toEqual(['order-42-attempt-1', 'order-42-attempt-1', 'order-42-attempt-1', 'order-42-attempt-2']);
    });

    it('failNextCreates: the SDK raises StripeAPIError (500) without retries; with retries it recovers', async () => {
      fake.failNextCreates(1);
      const error = await caught(client(SECRET_KEY, { maxNetworkRetries: 0 }).checkout.sessions.create(checkoutParams()));
      expect(error).toBeInstanceOf(Stripe.errors.StripeAPIError);
      expect(error).toMatchObject({ statusCode: 500, type: 'StripeAPIError' });
      expect(fake.listSessions()).toHaveLength(0);

      // The injected failure is not saved under the idempotency key, so the SDK's retry (same key) succeeds.
      fake.failNextCreates(1);
      const session = await client(SECRET_KEY, { maxNetworkRetries: 1 }).checkout.sessions.create(checkoutParams());
      expect(session.status).toBe('open');
      const creates = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').slice(1);
      expect(creates).toHaveLength(2);
      expect(creates[0]!.idempotencyKey).toBe(creates[1]!.idempotencyKey);
      expect(fake.listSessions()).toHaveLength(1);
    });

    it('expires an open session (event checkout.session.expired) and refuses to expire a completed one', async () => {
      const open = await stripe.checkout.sessions.create(checkoutParams());
      const expired = await stripe.checkout.sessions.expire(open.id);
      expect(expired).toMatchObject({ id: open.id, status: 'expired', payment_status: 'unpaid', url: null });
      expect(fake.events.map((e) => e.type)).toEqual(['checkout.session.expired']);
      expect(fake.events[0]!.data.object.status).toBe('expired');
      expect(fake.events[0]!.request).toEqual({ id: expired.lastResponse.requestId, idempotency_key: expect.any(String) });

      const again = await caught(stripe.checkout.sessions.expire(open.id));
      expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(again).toMatchObject({ statusCode: 400, message: expect.stringContaining('has a status of `expired`') });

      const paid = await stripe.checkout.sessions.create(checkoutParams());
      await fake.pay(paid.id);
      const refused = await caught(stripe.checkout.sessions.expire(paid.id));
      expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(refused).toMatchObject({
        statusCode: 400,
        message: 'Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of `complete`.',
      });
      expect((await stripe.checkout.sessions.retrieve(paid.id)).status).toBe('complete');
      await expect(fake.expire(paid.id)).rejects.toThrow(/only an open one can expire/);
    });

    it('fake.expire() expires an open session and delivers checkout.session.expired', async () => {
      const hook = await receiver();
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const event = await fake.expire(session.id);
      expect(event.type).toBe('checkout.session.expired');
      expect(hook.received).toHaveLength(1);
      expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired');
    });

    it('retrieves an event by id, as sent', async () => {
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const event = await fake.pay(session.id);
      const retrieved = await stripe.events.retrieve(event.id);
      expect(retrieved).toEqual(event);
      expect(await caught(stripe.events.retrieve('evt_nope'))).toMatchObject({ statusCode: 404, code: 'resource_missing' });
    });

    it('answers unknown API paths with 404 "Unrecognized request URL"', async () => {
      const error = await caught(stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: 'x' } } as never));
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 404, message: expect.stringMatching(/^Unrecognized request URL \(POST: \/v1\/promotion_codes\)/) });
    });
  });

  describe('hosted checkout page', () => {
    it('shows the test-mode notice, product, amount, e-mail, "Pay $12.99" and a Cancel link', async () => {
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const page = await fetch(session.url!);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain('Test mode — fake Stripe checkout');
      expect(html).toContain('VPN Pro — 1 month');
      expect(html).toContain('buyer@example.com');
      expect(html).toContain(`<form method="post" action="/checkout/pay/${session.id}">`);
      expect(html).toContain('<button type="submit">Pay $12.99</button>');
      expect(html).toContain(`<a class="cancel" href="${CANCEL_URL}">Cancel</a>`);
    });

    it('escapes what the merchant sent', async () => {
      const session = await stripe.checkout.sessions.create(
        checkoutParams({ line_items: [{ price_data: { currency: 'usd', unit_amount: 100, product_data: { name: '<script>x</script>' } }, quantity: 1 }] }),
      );
      const html = await (await fetch(session.url!)).text();
      expect(html).not.toContain('<script>');
      expect(html).toContain('&#60;script&#62;x&#60;/script&#62;');
    });

    it('Pay: delivers the webhook, then 303 to success_url with the session id filled in', async () => {
      const hook = await receiver();
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const paid = await fetch(`${fake.url}/checkout/pay/${session.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'method=card',
        redirect: 'manual',
      });
      expect(paid.status).toBe(303);
      expect(paid.headers.get('location')).toBe(`https://shop.example/checkout/success?session_id=${session.id}`);
      expect(hook.received).toHaveLength(1);
      expect(fake.getSession(session.id)).toMatchObject({ status: 'complete', payment_status: 'paid' });

      // The page of a completed session sends the customer to the success page again.
      const revisit = await fetch(`${fake.url}/checkout/pay/${session.id}`, { redirect: 'manual' });
      expect(revisit.status).toBe(303);
      expect(revisit.headers.get('location')).toBe(`https://shop.example/checkout/success?session_id=${session.id}`);
      expect(fake.events).toHaveLength(1);
    });

    it('asks for the e-mail when the session has none, and uses it as customer_details.email', async () => {
      const session = await stripe.checkout.sessions.create(checkoutParams({ customer_email: undefined }));
      expect(await (await fetch(session.url!)).text()).toContain('<input id="email" name="email" type="email"');
      const post = (body: string) =>
        fetch(session.url!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual' });
      expect((await post('method=card&email=nope')).status).toBe(400);
      expect(fake.getSession(session.id)!.status).toBe('open');
      expect((await post('method=card&email=typed%40example.com')).status).toBe(303);
      expect(fake.getSession(session.id)!.customer_details?.email).toBe('typed@example.com');
    });

    it('shows an expired session as expired, with a link back to cancel_url', async () => {
      const session = await stripe.checkout.sessions.create(checkoutParams());
      await fake.expire(session.id);
      const page = await fetch(`${fake.url}/checkout/pay/${session.id}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('This checkout session has expired');
      expect(html).toContain(`href="${CANCEL_URL}"`);
      expect(html).not.toContain('Pay $');
      const post = await fetch(`${fake.url}/checkout/pay/${session.id}`, { method: 'POST', body: 'method=card', redirect: 'manual' });
      expect(post.status).toBe(409);
      expect(fake.getSession(session.id)!.status).toBe('expired');
    });

    it('answers 404 for an unknown session', async () => {
      const page = await fetch(`${fake.url}/checkout/pay/cs_test_unknown`);
      expect(page.status).toBe(404);
      expect(await page.text()).toContain('Checkout session not found');
    });
  });

  describe('webhooks', () => {
    it('delivers checkout.session.completed signed so that stripe.webhooks.constructEvent accepts it', async () => {
      const hook = await receiver();
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const event = await fake.pay(session.id);

      expect(hook.received).toHaveLength(1);
      const [delivery] = hook.received;
      expect(delivery!.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(delivery!.headers['user-agent']).toBe('Stripe/1.0 (+https://stripe.com/docs/webhooks)');
      const signature = delivery!.headers['stripe-signature'];
      expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

      const verified = stripe.webhooks.constructEvent(delivery!.body, signature!, WEBHOOK_SECRET);
      expect(verified).toEqual(event);
      expect(verified).toMatchObject({
        object: 'event',
        type: 'checkout.session.completed',
        api_version: Stripe.API_VERSION,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      });
      expect(event.id).toMatch(/^evt_/);
      expect(event.data.object).toMatchObject({
        id: session.id,
        status: 'complete',
        payment_status: 'paid',
        customer_details: { email: 'buyer@example.com' },
        metadata: { orderId: '42', planId: 'pro-monthly' },
      });
      expect(event.data.object.payment_intent).toMatch(/^pi_/);

      expect(() => stripe.webhooks.constructEvent(delivery!.body, signature!, 'whsec_some_other_secret')).toThrow(
        Stripe.errors.StripeSignatureVerificationError,
      );
      expect(() => stripe.webhooks.constructEvent(delivery!.body.toString('utf8').replace('"paid"', '"unpaid"'), signature!, WEBHOOK_SECRET)).toThrow(
        Stripe.errors.StripeSignatureVerificationError,
      );
      expect(fake.deliveries).toEqual([{ eventId: event.id, type: 'checkout.session.completed', status: 200 }]);
    });

    it('sends the body pretty-printed as Stripe does, so only the raw body verifies', async () => {
      const hook = await receiver();
      const session = await stripe.checkout.sessions.create(checkoutParams());
      await fake.pay(session.id);
      const { body, headers } = hook.received[0]!;
      expect(body.toString('utf8').startsWith('{\n  "id": "evt_')).toBe(true);
      const reserialized = JSON.stringify(JSON.parse(body.toString('utf8')));
      expect(() => stripe.webhooks.constructEvent(reserialized, headers['stripe-signature']!, WEBHOOK_SECRET)).toThrow(
        Stripe.errors.StripeSignatureVerificationError,
      );
    });

    it('keeps a snapshot of the session in each event', async () => {
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const completed = await fake.pay(session.id, { async: true });
      const succeeded = await fake.succeedAsync(session.id);
      expect(completed.data.object.payment_status).toBe('unpaid');
      expect(succeeded.data.object.payment_status).toBe('paid');
    });

    it('deliver() re-sends the same event id with a valid signature', async () => {
      const hook = await receiver();
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const event = await fake.pay(session.id);
      expect(await fake.deliver(event)).toBe(200);
      expect(hook.received).toHaveLength(2);
      const ids = hook.received.map((r) => stripe.webhooks.constructEvent(r.body, r.headers['stripe-signature']!, WEBHOOK_SECRET).id);
      expect(ids).toEqual([event.id, event.id]);
      expect(fake.events).toHaveLength(1);
      expect(fake.deliveries.map((d) => d.eventId)).toEqual([event.id, event.id]);
    });

    it('records a failing endpoint without throwing out of pay()', async () => {
      const hook = await receiver();
      hook.answerWith(500);
      const first = await stripe.checkout.sessions.create(checkoutParams());
      await fake.pay(first.id);
      expect(fake.deliveries.at(-1)).toMatchObject({ type: 'checkout.session.completed', status: 500 });

      await hook.close();
      const second = await stripe.checkout.sessions.create(checkoutParams());
      await expect(fake.pay(second.id)).resolves.toMatchObject({ type: 'checkout.session.completed' });
      expect(fake.deliveries.at(-1)).toMatchObject({ status: 'error' });
      expect(fake.getSession(second.id)!.status).toBe('complete');
    });

    it('without a webhook URL records events but delivers nothing', async () => {
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const event = await fake.pay(session.id);
      expect(event.pending_webhooks).toBe(0);
      expect(fake.events).toEqual([event]);
      expect(fake.deliveries).toEqual([]);
      await expect(fake.deliver(event)).rejects.toThrow(/no webhook URL/);
    });

    it('delivers an API-triggered expiry in the background (waitForDeliveries)', async () => {
      const hook = await receiver();
      const session = await stripe.checkout.sessions.create(checkoutParams());
      await stripe.checkout.sessions.expire(session.id);
      await fake.waitForDeliveries();
      expect(hook.received).toHaveLength(1);
      expect(stripe.webhooks.constructEvent(hook.received[0]!.body, hook.received[0]!.headers['stripe-signature']!, WEBHOOK_SECRET).type).toBe(
        'checkout.session.expired',
      );
    });

    it('signedDelivery() signs with another secret or an old timestamp on request', async () => {
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const event = await fake.pay(session.id);
      const valid = fake.signedDelivery(event);
      expect(stripe.webhooks.constructEvent(valid.body, valid.signature, WEBHOOK_SECRET).id).toBe(event.id);

      const forged = fake.signedDelivery(event, { secret: 'whsec_attacker' });
      expect(() => stripe.webhooks.constructEvent(forged.body, forged.signature, WEBHOOK_SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError);
      expect(stripe.webhooks.constructEvent(forged.body, forged.signature, 'whsec_attacker').id).toBe(event.id);

      const stale = fake.signedDelivery(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
      expect(stale.signature).toMatch(/^t=\d+,v1=/);
      expect(() => stripe.webhooks.constructEvent(stale.body, stale.signature, WEBHOOK_SECRET)).toThrow(/tolerance/);
    });
  });

  describe('async payment methods', () => {
    it('completes unpaid, then async_payment_succeeded marks it paid', async () => {
      const hook = await receiver();
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const completed = await fake.pay(session.id, { async: true });
      expect(completed.type).toBe('checkout.session.completed');
      expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'complete', payment_status: 'unpaid' });

      const succeeded = await fake.succeedAsync(session.id);
      expect(succeeded.type).toBe('checkout.session.async_payment_succeeded');
      expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'complete', payment_status: 'paid' });
      expect(hook.received.map((r) => r.payload?.type)).toEqual(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
      await expect(fake.succeedAsync(session.id)).rejects.toThrow(/no async payment/);
    });

    it('completes unpaid, then async_payment_failed leaves it unpaid', async () => {
      const session = await stripe.checkout.sessions.create(checkoutParams());
      await fake.pay(session.id, { async: true });
      const failed = await fake.failAsync(session.id);
      expect(failed.type).toBe('checkout.session.async_payment_failed');
      expect(failed.data.object).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
      expect(fake.events.map((e) => e.type)).toEqual(['checkout.session.completed', 'checkout.session.async_payment_failed']);
    });

    it('the page\'s "Bank debit" option pays asynchronously', async () => {
      const session = await stripe.checkout.sessions.create(checkoutParams());
      const post = await fetch(session.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'method=delayed',
        redirect: 'manual',
      });
      expect(post.status).toBe(303);
      expect(fake.getSession(session.id)).toMatchObject({ status: 'complete', payment_status: 'unpaid' });
      await expect(fake.failAsync(session.id)).resolves.toMatchObject({ type: 'checkout.session.async_payment_failed' });
    });

    it('refuses to settle a card payment or to pay twice', async () => {
      const session = await stripe.checkout.sessions.create(checkoutParams());
      await fake.pay(session.id);
      await expect(fake.failAsync(session.id)).rejects.toThrow(/no async payment/);
      await expect(fake.pay(session.id)).rejects.toThrow(/is complete, not open/);
      await expect(fake.pay('cs_test_missing')).rejects.toThrow(/no checkout session/);
    });
  });

  it('formats amounts like the checkout page', () => {
    expect(formatAmount(1299, 'usd')).toBe('$12.99');
    expect(formatAmount(100000, 'usd')).toBe('$1,000.00');
    expect(formatAmount(500, 'jpy')).toBe('¥500');
  });
});
