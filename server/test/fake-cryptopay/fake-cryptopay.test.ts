import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.js';
import { signBody, startFakeCryptopay, type CryptopayInvoice, type CryptopayUpdate, type FakeCryptopay } from './index.js';

const TOKEN = '12345:AAfakeTokenForTheCryptoPayFakeTests0';

interface Envelope {
  ok: boolean;
  result?: unknown;
  error?: { code: number; name: string };
}

/** The digest's check, written out apart from the fake's own signBody: HMAC keyed with the binary SHA-256 of the token. */
function verifies(body: Buffer | string, signature: string, token: string): boolean {
  const key = createHash('sha256').update(token, 'utf8').digest();
  const expected = createHmac('sha256', key).update(body).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the fake Crypto Pay', () => {
  let fake: FakeCryptopay;
  let receiver: WebhookReceiver<CryptopayUpdate>;

  /** One API call: POST with a JSON body unless told, the right token unless told. */
  async function call(
    method: string,
    params: Record<string, unknown> = {},
    options: { verb?: 'GET' | 'POST' | 'PUT'; token?: string | null; form?: boolean } = {},
  ) {
    const { verb = 'POST', token = TOKEN, form = false } = options;
    const headers: Record<string, string> = token === null ? {} : { 'Crypto-Pay-API-Token': token };
    const asText = () => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
    let url = `${fake.url}/api/${method}`;
    let body: string | undefined;
    if (verb === 'GET') {
      url += `?${asText()}`;
    } else if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = asText();
    } else {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(params);
    }
    const response = await fetch(url, { method: verb, headers, body });
    return { status: response.status, body: (await response.json()) as Envelope };
  }

  async function createInvoice(params: Record<string, unknown>): Promise<CryptopayInvoice> {
    const { status, body } = await call('createInvoice', params);
    expect(body.error).toBeUndefined();
    expect(status).toBe(200);
    return body.result as CryptopayInvoice;
  }

  async function getInvoices(params: Record<string, unknown> = {}): Promise<CryptopayInvoice[]> {
    const { status, body } = await call('getInvoices', params);
    expect(status).toBe(200);
    return (body.result as { items: CryptopayInvoice[] }).items;
  }

  beforeEach(async () => {
    receiver = await startWebhookReceiver<CryptopayUpdate>('/api/webhooks/cryptopay');
    fake = await startFakeCryptopay({ token: TOKEN, webhookUrl: receiver.url });
  });
  afterEach(async () => {
    await fake.close();
    await receiver.close();
  });

  describe('the API envelope', () => {
    it('answers 401 UNAUTHORIZED, with HTTP status 401, without the token or with another one', async () => {
      for (const token of [null, '12345:AAsomeoneElsesTokenXXXXXXXXXXXXXXXXXX']) {
        expect(await call('getMe', {}, { token })).toEqual({ status: 401, body: { ok: false, error: { code: 401, name: 'UNAUTHORIZED' } } });
      }
      expect(fake.requests.map((r) => r.token)).toEqual([null, '12345:AAsomeoneElsesTokenXXXXXXXXXXXXXXXXXX']);
    });

    it('answers 405 METHOD_NOT_FOUND for a method it does not have, and for another HTTP verb', async () => {
      expect(await call('getBogus')).toEqual({ status: 405, body: { ok: false, error: { code: 405, name: 'METHOD_NOT_FOUND' } } });
      expect((await call('getMe', {}, { verb: 'PUT' })).status).toBe(405);
    });

    it('answers getMe with { ok: true, result } and 200, naming the testnet bot', async () => {
      expect(await call('getMe')).toEqual({
        status: 200,
        body: { ok: true, result: { app_id: fake.appId, name: 'Fake Crypto Pay App', payment_processing_bot_username: 'CryptoTestnetBot' } },
      });
    });

    it('takes the same parameters from a query string, a JSON body or a form, coercing "false" and numbers', async () => {
      const params = { asset: 'TON', amount: '1.5', allow_comments: 'false', expires_in: '600' };
      const byGet = (await call('createInvoice', params, { verb: 'GET' })).body.result as CryptopayInvoice;
      const byForm = (await call('createInvoice', params, { form: true })).body.result as CryptopayInvoice;
      const byJson = await createInvoice({ asset: 'TON', amount: 1.5, allow_comments: false, expires_in: 600 });
      for (const invoice of [byGet, byForm, byJson]) expect(invoice).toMatchObject({ asset: 'TON', amount: '1.5', allow_comments: false, status: 'active' });
      expect(fake.requests.map((r) => [r.verb, r.params.allow_comments])).toEqual([
        ['GET', 'false'],
        ['POST', 'false'],
        ['POST', false],
      ]);
    });

    it('a mainnet app names CryptoBot in getMe and in the invoice links', async () => {
      const mainnet = await startFakeCryptopay({ token: TOKEN, network: 'mainnet', appId: 777 });
      try {
        const headers = { 'Crypto-Pay-API-Token': TOKEN, 'content-type': 'application/json' };
        const me = (await (await fetch(`${mainnet.url}/api/getMe`, { headers })).json()) as Envelope;
        expect(me.result).toMatchObject({ app_id: 777, payment_processing_bot_username: 'CryptoBot' });
        const created = await fetch(`${mainnet.url}/api/createInvoice`, { method: 'POST', headers, body: JSON.stringify({ asset: 'USDT', amount: '1' }) });
        const invoice = ((await created.json()) as Envelope).result as CryptopayInvoice;
        expect(invoice.bot_invoice_url).toBe(`https://t.me/CryptoBot?start=${invoice.hash}`);
      } finally {
        await mainnet.close();
      }
    });
  });

  describe('createInvoice', () => {
    it.each([
      ['an unknown currency_type', { currency_type: 'barter', asset: 'USDT', amount: '1' }, 400, 'CURRENCY_TYPE_INVALID'],
      ['a crypto invoice without an asset', { amount: '1' }, 400, 'ASSET_REQUIRED'],
      ['an unknown asset', { asset: 'FFF', amount: '1', paid_btn_name: 'callback' }, 400, 'UNSUPPORTED_ASSET'],
      ['a fiat invoice without a fiat', { currency_type: 'fiat', amount: '1' }, 400, 'FIAT_REQUIRED'],
      ['a fiat not in the list', { currency_type: 'fiat', fiat: 'XYZ', amount: '1' }, 400, 'UNSUPPORTED_FIAT'],
      ['accepted_assets as a JSON array', { currency_type: 'fiat', fiat: 'USD', amount: '1', accepted_assets: ['USDT', 'TON'] }, 500, 'APP_ERROR'],
      ['an unknown accepted asset', { currency_type: 'fiat', fiat: 'USD', amount: '1', accepted_assets: 'USDT,FFF' }, 400, 'UNSUPPORTED_ASSET'],
      ['no amount', { asset: 'USDT' }, 400, 'AMOUNT_REQUIRED'],
      ['a zero amount', { asset: 'USDT', amount: '0' }, 400, 'AMOUNT_INVALID'],
      ['a negative amount', { asset: 'USDT', amount: -5 }, 400, 'AMOUNT_INVALID'],
      ['a description over 1024 characters', { asset: 'USDT', amount: '1', description: 'x'.repeat(1025) }, 400, 'DESCRIPTION_TOO_LONG'],
      ['a payload over 4096 bytes', { asset: 'USDT', amount: '1', payload: 'é'.repeat(2049) }, 400, 'PAYLOAD_TOO_LONG'],
      ['paid_btn_name without paid_btn_url', { asset: 'TON', amount: '0.105', paid_btn_name: 'callback' }, 400, 'PAID_BTN_URL_REQUIRED'],
      ['expires_in of 0', { asset: 'USDT', amount: '1', expires_in: 0 }, 400, 'EXPIRES_IN_INVALID'],
      ['expires_in over 31 days', { asset: 'USDT', amount: '1', expires_in: 2_678_401 }, 400, 'EXPIRES_IN_INVALID'],
    ])('refuses %s with %i %s, and creates nothing', async (_case, params, code, name) => {
      expect(await call('createInvoice', params)).toEqual({ status: code, body: { ok: false, error: { code, name } } });
      expect(fake.listInvoices()).toEqual([]);
    });

    it('takes the longest expires_in, 2678400 seconds', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1', expires_in: 2_678_400 });
      expect(Date.parse(invoice.expiration_date!) - Date.parse(invoice.created_at)).toBe(2_678_400_000);
    });

    it('answers a crypto invoice in the real shape: number id, string amount, ISO dates, absent fields left out', async () => {
      const before = Date.now();
      const invoice = await createInvoice({
        asset: 'USDT',
        amount: '2',
        description: 'VPN, 1 month',
        payload: '332636792',
        allow_anonymous: false,
        expires_in: 3600,
      });
      expect(Object.keys(invoice)).toEqual([
        'invoice_id',
        'hash',
        'currency_type',
        'asset',
        'amount',
        'pay_url',
        'bot_invoice_url',
        'mini_app_invoice_url',
        'web_app_invoice_url',
        'description',
        'status',
        'created_at',
        'allow_comments',
        'allow_anonymous',
        'expiration_date',
        'payload',
      ]);
      expect(invoice).toEqual({
        invoice_id: expect.any(Number),
        hash: expect.stringMatching(/^IV[A-Za-z0-9]{10}$/),
        currency_type: 'crypto',
        asset: 'USDT',
        amount: '2',
        pay_url: `https://t.me/CryptoTestnetBot?start=${invoice.hash}`,
        bot_invoice_url: `https://t.me/CryptoTestnetBot?start=${invoice.hash}`,
        mini_app_invoice_url: `https://t.me/CryptoTestnetBot/app?startapp=invoice-${invoice.hash}&mode=compact`,
        web_app_invoice_url: `${fake.url}/invoices/${invoice.hash}`,
        description: 'VPN, 1 month',
        status: 'active',
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        allow_comments: true,
        allow_anonymous: false,
        expiration_date: expect.stringMatching(/\.\d{3}Z$/),
        payload: '332636792',
      });
      expect(Date.parse(invoice.created_at)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(invoice.expiration_date!) - Date.parse(invoice.created_at)).toBe(3_600_000);
      expect(fake.getInvoice(invoice.invoice_id)).toEqual(invoice);
    });

    it('keeps a payload of digits as the string it was sent as', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1990.00', payload: '007' });
      expect(invoice).toMatchObject({ amount: '1990.00', payload: '007' });
      const byGet = (await call('createInvoice', { asset: 'USDT', amount: '1', payload: '6570494694' }, { verb: 'GET' })).body.result as CryptopayInvoice;
      expect(byGet.payload).toBe('6570494694');
    });

    it('a fiat invoice returns accepted_assets as an array: all the assets by default, or those listed', async () => {
      const every = await createInvoice({ currency_type: 'fiat', fiat: 'USD', amount: '9.99' });
      expect(every).toMatchObject({
        currency_type: 'fiat',
        fiat: 'USD',
        amount: '9.99',
        accepted_assets: ['USDT', 'TON', 'BTC', 'ETH', 'LTC', 'BNB', 'TRX', 'USDC', 'JET'],
      });
      expect(every).not.toHaveProperty('asset');
      expect(every).not.toHaveProperty('expiration_date');
      const some = await createInvoice({ currency_type: 'fiat', fiat: 'RUB', amount: '1990', accepted_assets: 'USDT,TON' });
      expect(some.accepted_assets).toEqual(['USDT', 'TON']);
    });
  });

  describe('paying', () => {
    it('a paid fiat invoice carries the paid asset, the amount at the fixed rate, the 3 % fee and the USD figures', async () => {
      const invoice = await createInvoice({ currency_type: 'fiat', fiat: 'RUB', amount: '1990', accepted_assets: 'USDT,TON' });
      const before = Date.now();
      await fake.pay(invoice.invoice_id);
      const paid = fake.getInvoice(invoice.invoice_id)!;
      expect(paid).toEqual({
        ...invoice,
        status: 'paid',
        paid_asset: 'USDT',
        paid_amount: '22.12', // 1990 RUB at 90 RUB per USDT, rounded up to the cent
        paid_fiat_rate: '90',
        fee_asset: 'USDT',
        fee_amount: '0.6636',
        fee_in_usd: '0.6636',
        paid_usd_rate: '1',
        paid_at: expect.stringMatching(/\.\d{3}Z$/),
        paid_anonymously: false,
      });
      expect(Date.parse(paid.paid_at!)).toBeGreaterThanOrEqual(before);
      expect(paid).not.toHaveProperty('fee');
      expect(paid).not.toHaveProperty('usd_rate');
    });

    it('pays a fiat invoice in another accepted asset when told, and refuses one it does not accept', async () => {
      const invoice = await createInvoice({ currency_type: 'fiat', fiat: 'USD', amount: '9.99', accepted_assets: 'USDT,TON' });
      await expect(fake.pay(invoice.invoice_id, { asset: 'BTC' })).rejects.toThrow(/takes USDT, TON/);
      await fake.pay(invoice.invoice_id, { asset: 'TON' });
      expect(fake.getInvoice(invoice.invoice_id)).toMatchObject({
        paid_asset: 'TON',
        paid_amount: '1.998',
        paid_fiat_rate: '5',
        fee_amount: '0.05994',
        fee_in_usd: '0.2997',
        paid_usd_rate: '5',
      });
    });

    it("a paid crypto invoice is paid in its own asset, with no fiat rate (REAL-1's figures)", async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '2.6' });
      await fake.pay(invoice.invoice_id);
      const paid = fake.getInvoice(invoice.invoice_id)!;
      expect(paid).toMatchObject({
        status: 'paid',
        paid_asset: 'USDT',
        paid_amount: '2.6',
        fee_asset: 'USDT',
        fee_amount: '0.078',
        fee_in_usd: '0.078',
        paid_usd_rate: '1',
      });
      expect(paid).not.toHaveProperty('paid_fiat_rate');
      expect(paid).not.toHaveProperty('accepted_assets');
    });

    it('will not pay an invoice twice', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1' });
      await fake.pay(invoice.invoice_id);
      await expect(fake.pay(invoice.invoice_id)).rejects.toThrow(/is paid, not active/);
    });
  });

  describe('getInvoices', () => {
    it('selects by comma-separated ids, leaving unknown ids out', async () => {
      const a = await createInvoice({ asset: 'USDT', amount: '1' });
      const b = await createInvoice({ asset: 'TON', amount: '2' });
      await createInvoice({ asset: 'BTC', amount: '3' });
      const items = await getInvoices({ invoice_ids: `${a.invoice_id},${b.invoice_id},1` });
      expect(items.map((i) => i.invoice_id).sort()).toEqual([a.invoice_id, b.invoice_id].sort());
      expect(await getInvoices({ invoice_ids: '0,11111' })).toEqual([]);
    });

    it('filters by status and asset, and pages with offset and count', async () => {
      const a = await createInvoice({ asset: 'USDT', amount: '1' });
      const b = await createInvoice({ asset: 'USDT', amount: '2' });
      const c = await createInvoice({ asset: 'TON', amount: '3' });
      await fake.pay(b.invoice_id, { deliver: false });
      expect((await getInvoices({ status: 'paid' })).map((i) => i.invoice_id)).toEqual([b.invoice_id]);
      expect((await getInvoices({ status: 'active' })).map((i) => i.invoice_id).sort()).toEqual([a.invoice_id, c.invoice_id].sort());
      expect((await getInvoices({ asset: 'TON' })).map((i) => i.invoice_id)).toEqual([c.invoice_id]);
      const all = (await getInvoices()).map((i) => i.invoice_id);
      expect(all).toHaveLength(3);
      expect((await getInvoices({ offset: 1, count: 1 })).map((i) => i.invoice_id)).toEqual([all[1]]);
    });

    it('answers a negative count with 500 APP_ERROR and a negative offset with 500 INTERNAL_SERVER_ERROR, as the real API does', async () => {
      expect(await call('getInvoices', { offset: 5, count: -30 })).toEqual({ status: 500, body: { ok: false, error: { code: 500, name: 'APP_ERROR' } } });
      expect(await call('getInvoices', { offset: -10, count: 100 })).toEqual({
        status: 500,
        body: { ok: false, error: { code: 500, name: 'INTERNAL_SERVER_ERROR' } },
      });
      expect((await call('getInvoices', { count: 1001 })).status).toBe(400);
    });
  });

  describe('deleteInvoice', () => {
    it('deletes an active invoice: true, and getInvoices no longer has it', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1' });
      expect(await call('deleteInvoice', { invoice_id: invoice.invoice_id })).toEqual({ status: 200, body: { ok: true, result: true } });
      expect(await getInvoices({ invoice_ids: String(invoice.invoice_id) })).toEqual([]);
      expect(fake.getInvoice(invoice.invoice_id)).toBeUndefined();
    });

    it('deletes an expired invoice', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1', expires_in: 60 });
      fake.expire(invoice.invoice_id);
      expect((await call('deleteInvoice', { invoice_id: invoice.invoice_id })).body).toEqual({ ok: true, result: true });
    });

    it('refuses a paid invoice or an unknown id with 400 INVOICE_NOT_FOUND, and the paid one stays', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1' });
      await fake.pay(invoice.invoice_id, { deliver: false });
      const refused = { status: 400, body: { ok: false, error: { code: 400, name: 'INVOICE_NOT_FOUND' } } };
      expect(await call('deleteInvoice', { invoice_id: invoice.invoice_id })).toEqual(refused);
      expect(await call('deleteInvoice', { invoice_id: 1 })).toEqual(refused);
      expect(fake.getInvoice(invoice.invoice_id)?.status).toBe('paid');
    });
  });

  describe('expiry', () => {
    it('an invoice reads as expired once its expiration_date has passed, and can no longer be paid', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1', expires_in: 1 });
      expect(invoice.status).toBe('active');
      await sleep(1100);
      expect((await getInvoices({ invoice_ids: String(invoice.invoice_id) }))[0]?.status).toBe('expired');
      expect(await getInvoices({ status: 'active' })).toEqual([]);
      await expect(fake.pay(invoice.invoice_id)).rejects.toThrow(/is expired/);
    });

    it('expire() runs the time out now, with no webhook', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1' });
      const before = Date.now();
      fake.expire(invoice.invoice_id);
      const expired = fake.getInvoice(invoice.invoice_id)!;
      expect(expired.status).toBe('expired');
      expect(Date.parse(expired.expiration_date!)).toBeGreaterThanOrEqual(before);
      expect(fake.deliveries).toEqual([]);
      expect(() => fake.expire(invoice.invoice_id)).toThrow(/is expired, not active/);
    });
  });

  describe('webhooks', () => {
    it('POSTs invoice_paid as compact JSON, signed with the binary SHA-256 of the token', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '2.6', payload: 'order-1' });
      expect(await fake.pay(invoice.invoice_id)).toEqual({ status: 200 });
      expect(receiver.received).toHaveLength(1);
      const { headers, body, payload } = receiver.received[0]!;
      const update = payload!;
      expect(headers['content-type']).toBe('application/json');
      expect(verifies(body, String(headers['crypto-pay-api-signature']), TOKEN)).toBe(true);
      expect(verifies(body, String(headers['crypto-pay-api-signature']), 'another:token')).toBe(false);
      expect(body.toString('utf8')).toBe(JSON.stringify(update));
      expect(Object.keys(update)).toEqual(['update_id', 'update_type', 'request_date', 'payload']);
      expect(update).toMatchObject({ update_id: expect.any(Number), update_type: 'invoice_paid', request_date: expect.stringMatching(/\.\d{3}Z$/) });
      // The payload is the paid invoice, plus the deprecated fee and usd_rate a webhook still carries.
      expect(update.payload).toEqual({ ...fake.getInvoice(invoice.invoice_id), fee: '0.078', usd_rate: '1' });
      expect(fake.deliveries).toEqual([{ invoiceId: invoice.invoice_id, status: 200, body: body.toString('utf8') }]);
    });

    it("signBody matches the digest's test vector", () => {
      expect(signBody('{"update_type":"invoice_paid"}', '12345:AAkat')).toBe('3fe6fa1f99eab081755f517980f8210ffb048bfe6e1cd6f2133db45acf2552d5');
      expect(verifies('{"update_type":"invoice_paid"}', '3fe6fa1f99eab081755f517980f8210ffb048bfe6e1cd6f2133db45acf2552d5', '12345:AAkat')).toBe(true);
    });

    it('redelivers the same update with a new request_date', async () => {
      const invoice = await createInvoice({ asset: 'TON', amount: '1' });
      await fake.pay(invoice.invoice_id);
      await sleep(5);
      expect(await fake.redeliver(invoice.invoice_id)).toEqual({ status: 200 });
      const [first, again] = receiver.received.map((r) => r.payload);
      expect(again).toEqual({ ...first, request_date: expect.any(String) });
      expect(again!.request_date).not.toBe(first!.request_date);
      expect(fake.deliveries.map((d) => d.invoiceId)).toEqual([invoice.invoice_id, invoice.invoice_id]);
    });

    it("records a failed delivery's status, sends nothing without a URL or with deliver: false, and never throws", async () => {
      receiver.answerWith(500);
      const failing = await createInvoice({ asset: 'USDT', amount: '1' });
      expect(await fake.pay(failing.invoice_id)).toEqual({ status: 500 });
      const quiet = await createInvoice({ asset: 'USDT', amount: '1' });
      expect(await fake.pay(quiet.invoice_id, { deliver: false })).toEqual({ status: null });
      fake.setWebhookUrl(null);
      const unsent = await createInvoice({ asset: 'USDT', amount: '1' });
      expect(await fake.pay(unsent.invoice_id)).toEqual({ status: null });
      fake.setWebhookUrl('http://127.0.0.1:1/refused');
      expect(await fake.redeliver(unsent.invoice_id)).toEqual({ status: 'error' });
      expect(fake.deliveries.map((d) => [d.invoiceId, d.status])).toEqual([
        [failing.invoice_id, 500],
        [unsent.invoice_id, 'error'],
      ]);
    });

    it('signedUpdate gives the body a delivery would carry, signed with the token or with another one', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1' });
      const forged = fake.signedUpdate(invoice.invoice_id, { token: 'someone:else' });
      expect(JSON.parse(forged.body)).toMatchObject({ update_type: 'invoice_paid', payload: { invoice_id: invoice.invoice_id, status: 'active' } });
      expect(verifies(forged.body, forged.signature, 'someone:else')).toBe(true);
      expect(verifies(forged.body, forged.signature, TOKEN)).toBe(false);
      await fake.pay(invoice.invoice_id, { deliver: false });
      const real = fake.signedUpdate(invoice.invoice_id);
      expect(JSON.parse(real.body)).toMatchObject({ payload: { status: 'paid', paid_amount: '1' } });
      expect(real.signature).toBe(signBody(real.body, TOKEN));
    });
  });

  describe('the invoice page', () => {
    it('says it is a fake and shows the amount, description, accepted assets, a Pay button per asset and Expire', async () => {
      const invoice = await createInvoice({ currency_type: 'fiat', fiat: 'USD', amount: '9.99', accepted_assets: 'USDT,TON', description: 'VPN <1 month>' });
      const page = await fetch(invoice.web_app_invoice_url);
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain('<html lang="en">');
      expect(text).toContain('fake Crypto Pay');
      expect(text).toContain('9.99 USD');
      expect(text).toContain('VPN &#60;1 month&#62;');
      expect(text).toContain('<dt>Accepted assets</dt><dd>USDT, TON</dd>');
      expect(text).toContain('<button type="submit">Pay 9.99 USDT</button>');
      expect(text).toContain('<button type="submit">Pay 1.998 TON</button>');
      expect(text).toContain('>Expire</button>');
    });

    it('Pay pays in the chosen asset, delivers the webhook, then shows Paid and the link back to the merchant', async () => {
      const invoice = await createInvoice({
        currency_type: 'fiat',
        fiat: 'USD',
        amount: '9.99',
        accepted_assets: 'USDT,TON',
        paid_btn_name: 'callback',
        paid_btn_url: 'https://shop.example/return?order=1',
        hidden_message: 'Thank you!',
      });
      const paying = await fetch(invoice.web_app_invoice_url, {
        method: 'POST',
        body: new URLSearchParams({ action: 'pay', asset: 'TON' }),
        redirect: 'manual',
      });
      expect(paying.status).toBe(303);
      expect(paying.headers.get('location')).toBe(`/invoices/${invoice.hash}`);
      expect(fake.getInvoice(invoice.invoice_id)).toMatchObject({ status: 'paid', paid_asset: 'TON' });
      expect(receiver.received.map((r) => r.payload?.payload.invoice_id)).toEqual([invoice.invoice_id]);
      const text = await (await fetch(invoice.web_app_invoice_url)).text();
      expect(text).toContain('Paid: 1.998 TON received.');
      expect(text).toContain('Thank you!');
      expect(text).toContain('<a class="button" href="https://shop.example/return?order=1">Return to the merchant</a>');
      expect((await fetch(invoice.web_app_invoice_url, { method: 'POST', body: new URLSearchParams({ action: 'pay', asset: 'TON' }) })).status).toBe(409);
    });

    it('names the link by paid_btn_name: viewItem is "View item"', async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1', paid_btn_name: 'viewItem', paid_btn_url: 'https://t.me/shopBot' });
      await fake.pay(invoice.invoice_id, { deliver: false });
      expect(await (await fetch(invoice.web_app_invoice_url)).text()).toContain('<a class="button" href="https://t.me/shopBot">View item</a>');
    });

    it("Expire expires the invoice; an expired, deleted or unknown invoice's page says so", async () => {
      const invoice = await createInvoice({ asset: 'USDT', amount: '1' });
      const expiring = await fetch(invoice.web_app_invoice_url, { method: 'POST', body: new URLSearchParams({ action: 'expire' }), redirect: 'manual' });
      expect(expiring.status).toBe(303);
      expect(fake.getInvoice(invoice.invoice_id)?.status).toBe('expired');
      expect(await (await fetch(invoice.web_app_invoice_url)).text()).toContain('This invoice has expired');

      const deleted = await createInvoice({ asset: 'USDT', amount: '1' });
      await call('deleteInvoice', { invoice_id: deleted.invoice_id });
      const gone = await fetch(deleted.web_app_invoice_url);
      expect(gone.status).toBe(410);
      expect(await gone.text()).toContain('The merchant deleted this invoice');
      expect((await fetch(`${fake.url}/invoices/IVnothingHere`)).status).toBe(404);
    });
  });

  describe('failures on demand', () => {
    it('failNext answers the next call of a method with the error, once, and does nothing', async () => {
      fake.failNext('createInvoice', { code: 500, name: 'INTERNAL_SERVER_ERROR' });
      expect(await call('createInvoice', { asset: 'USDT', amount: '1' })).toEqual({
        status: 500,
        body: { ok: false, error: { code: 500, name: 'INTERNAL_SERVER_ERROR' } },
      });
      expect(fake.listInvoices()).toEqual([]);
      expect((await call('createInvoice', { asset: 'USDT', amount: '1' })).status).toBe(200);
    });

    it('loseNextAnswer carries the call out but closes the connection without an answer', async () => {
      fake.loseNextAnswer('createInvoice');
      await expect(call('createInvoice', { asset: 'USDT', amount: '1', payload: 'lost' })).rejects.toThrow();
      expect(fake.listInvoices()).toMatchObject([{ payload: 'lost', status: 'active' }]);
      expect((await call('getMe')).status).toBe(200);
    });
  });
});
