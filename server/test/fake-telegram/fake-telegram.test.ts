import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeTelegram, type FakeTelegram } from './index.js';
import { startWebhookReceiver, type WebhookReceiver } from '../webhook-receiver.js';

const BOT = { id: 7_000_000_001, username: 'storefront_test_bot', first_name: 'Storefront' };
const TOKEN = `${BOT.id}:AAHfakeTokenForTheTelegramFakeTests01`;
/** A well-formed token Telegram does not know. */
const UNKNOWN_TOKEN = '7000000002:AAHsomeoneElsesTokenXXXXXXXXXXXXXXXXX';
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const QUERY_ID_INVALID = 'Bad Request: query is too old and response timeout expired or query ID is invalid';

interface Envelope {
  ok: boolean;
  result?: any;
  description?: string;
  error_code?: number;
  parameters?: { retry_after?: number };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const failure = (error_code: number, description: string, parameters?: Record<string, unknown>) => ({
  ok: false,
  error_code,
  description,
  ...(parameters ? { parameters } : {}),
});

describe('the fake Telegram Bot API', () => {
  let fake: FakeTelegram;

  /** One method call: POST JSON unless told; `form` sends urlencoded text, `query` a GET with the query string. */
  async function call(method: string, params: Record<string, unknown> = {}, options: { token?: string; as?: 'json' | 'form' | 'query' } = {}) {
    const { token = TOKEN, as = 'json' } = options;
    const text = () =>
      new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]));
    const url = `${fake.url}/bot${token}/${method}`;
    const response =
      as === 'query'
        ? await fetch(`${url}?${text().toString()}`)
        : as === 'form'
          ? await fetch(url, { method: 'POST', body: text() })
          : await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Envelope };
  }

  async function result(method: string, params: Record<string, unknown> = {}) {
    const { status, body } = await call(method, params);
    expect(body).toMatchObject({ ok: true });
    expect(status).toBe(200);
    return body.result;
  }

  beforeEach(async () => {
    fake = await startFakeTelegram();
    fake.addBot(TOKEN, BOT);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await fake.close();
  });

  describe('tokens, methods and arguments', () => {
    it('answers getMe for a bot it knows with the User of a new bot', async () => {
      const { status, headers, body } = await call('getMe');
      expect(status).toBe(200);
      expect(headers.get('content-type')).toBe('application/json');
      expect(body).toEqual({
        ok: true,
        result: {
          id: BOT.id,
          is_bot: true,
          first_name: 'Storefront',
          username: 'storefront_test_bot',
          can_join_groups: true,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
          supports_guest_queries: false,
          can_connect_to_business: false,
          has_main_web_app: false,
          has_topics_enabled: false,
          allows_users_to_create_topics: false,
          can_manage_bots: false,
        },
      });
      expect(fake.callsTo('getme')).toEqual([{ token: TOKEN, method: 'getMe', params: {}, at: expect.any(Number) }]);
    });

    it('answers tokens as the real server does: unknown 401 Unauthorized, malformed 401 invalid token, a non-numeric bot id 421', async () => {
      expect(await call('getMe', {}, { token: UNKNOWN_TOKEN })).toMatchObject({ status: 401, body: failure(401, 'Unauthorized') });
      const malformed = ['abc', '0123:AAH', `1:${'A'.repeat(80)}`, '-5:AAH', ''];
      for (const token of malformed) {
        expect(await call('getMe', {}, { token })).toMatchObject({ status: 401, body: failure(401, 'Unauthorized: invalid token specified') });
      }
      expect(await call('getMe', {}, { token: 'bot:AAHsomething' })).toMatchObject({
        status: 421,
        body: failure(421, 'Misdirected Request: unallowed token specified'),
      });
      // An unknown token is refused before the method is looked at, and nothing is sent.
      expect(await call('sendMessage', { chat_id: 1, text: 'x' }, { token: UNKNOWN_TOKEN })).toMatchObject({ status: 401 });
      expect(fake.sent).toEqual([]);
      // Every call is recorded; Node's fetch (undici) repeats a request answered 421 once, on a new connection.
      const tokens = fake.calls.map((c) => c.token).filter((token, i, all) => token !== 'bot:AAHsomething' || all[i - 1] !== token);
      expect(tokens).toEqual([UNKNOWN_TOKEN, ...malformed, 'bot:AAHsomething', UNKNOWN_TOKEN]);
    });

    it('answers an unknown method 404 "Not Found: method not found", and a path not under /bot<token>/ 404 "Not Found"', async () => {
      expect(await call('sendTelepathy')).toMatchObject({ status: 404, body: failure(404, 'Not Found: method not found') });
      const response = await fetch(`${fake.url}/getMe`);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(failure(404, 'Not Found'));
    });

    it('matches method names in any case, and reads the query string, urlencoded bodies and JSON numbers alike', async () => {
      expect((await call('SENDMESSAGE', { chat_id: 42, text: 'json' })).body.result).toMatchObject({ chat: { id: 42, type: 'private' }, text: 'json' });
      expect((await call('sendMessage', { chat_id: '42', text: 'form' }, { as: 'form' })).body.result).toMatchObject({ chat: { id: 42 } });
      expect((await call('sendMessage', { chat_id: 42, text: 'query' }, { as: 'query' })).body.result).toMatchObject({ chat: { id: 42 } });
      expect(fake.sent.map((s) => [s.method, s.chatId, s.text])).toEqual([
        ['SENDMESSAGE', 42, 'json'],
        ['sendMessage', 42, 'form'],
        ['sendMessage', 42, 'query'],
      ]);
      expect(fake.callsTo('sendMessage').map((c) => c.params.chat_id)).toEqual([42, '42', '42']);
    });

    it('refuses to know a token Telegram could never issue', () => {
      expect(() => fake.addBot('123:short', { ...BOT, id: 123 })).toThrow(/never accept/);
      expect(() => fake.addBot(`999:${'A'.repeat(30)}`, BOT)).toThrow(/starts with its bot's id/);
    });
  });

  describe('webhooks', () => {
    let receiver: WebhookReceiver<Record<string, any>>;
    beforeEach(async () => {
      receiver = await startWebhookReceiver('/telegram/webhook');
    });
    afterEach(async () => {
      await receiver.close();
    });

    it('sets, reports and deletes a webhook with the server descriptions', async () => {
      const params = { url: receiver.url, secret_token: 'sEcret_-123', allowed_updates: ['message', 'pre_checkout_query'], max_connections: 10 };
      expect((await call('setWebhook', params)).body).toEqual({ ok: true, result: true, description: 'Webhook was set' });
      expect((await call('setWebhook', params)).body).toEqual({ ok: true, result: true, description: 'Webhook is already set' });
      expect(await result('getWebhookInfo')).toEqual({
        url: receiver.url,
        has_custom_certificate: false,
        pending_update_count: 0,
        max_connections: 10,
        ip_address: '127.0.0.1',
        allowed_updates: ['message', 'pre_checkout_query'],
      });
      expect(fake.webhookOf(TOKEN)).toEqual({
        url: receiver.url,
        secretToken: 'sEcret_-123',
        allowedUpdates: ['message', 'pre_checkout_query'],
        maxConnections: 10,
      });

      expect((await call('deleteWebhook')).body).toEqual({ ok: true, result: true, description: 'Webhook was deleted' });
      expect((await call('deleteWebhook')).body).toEqual({ ok: true, result: true, description: 'Webhook is already deleted' });
      expect(fake.webhookOf(TOKEN)).toBeNull();
      // allowed_updates belong to the bot, not to the webhook
      expect(await result('getWebhookInfo')).toEqual({
        url: '',
        has_custom_certificate: false,
        pending_update_count: 0,
        allowed_updates: ['message', 'pre_checkout_query'],
      });
    });

    it('sets a webhook with the default 40 connections and no secret', async () => {
      await result('setWebhook', { url: receiver.url });
      expect(fake.webhookOf(TOKEN)).toEqual({ url: receiver.url, secretToken: null, allowedUpdates: null, maxConnections: 40 });
    });

    it('refuses bad secrets and URLs Telegram cannot call; a refused setWebhook leaves no webhook', async () => {
      await result('setWebhook', { url: receiver.url });
      const refusals: Array<[Record<string, unknown>, string]> = [
        [{ url: receiver.url, secret_token: 'x'.repeat(257) }, 'Bad Request: secret token is too long'],
        [{ url: receiver.url, secret_token: 'has space' }, 'Bad Request: secret token contains unallowed characters'],
        [{ url: 'ftp://example.com/hook' }, 'Bad Request: invalid webhook URL specified'],
        [{ url: 'http://example.com/hook' }, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook'],
        [{ url: 'https://example.com:8080/hook' }, 'Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443'],
      ];
      for (const [params, description] of refusals) {
        expect(await call('setWebhook', params)).toMatchObject({ status: 400, body: failure(400, description) });
        expect(fake.webhookOf(TOKEN)).toBeNull();
      }
      expect((await call('setWebhook', { url: 'https://example.com:8443/hook', secret_token: 'x'.repeat(256) })).body.description).toBe('Webhook was set');
    });

    it('delivers an update as Telegram does: POST JSON, the secret header, an update_id', async () => {
      await result('setWebhook', { url: receiver.url, secret_token: 'abc-DEF_123' });
      expect(await fake.deliver(TOKEN, { message: { message_id: 5, chat: { id: 42, type: 'private' }, text: '/start' } })).toEqual({ status: 200, body: 'ok' });
      const [post] = receiver.received;
      expect(post!.headers['x-telegram-bot-api-secret-token']).toBe('abc-DEF_123');
      expect(post!.headers['content-type']).toBe('application/json');
      expect(post!.payload).toEqual({ update_id: expect.any(Number), message: { message_id: 5, chat: { id: 42, type: 'private' }, text: '/start' } });
      // a given update_id is kept
      await fake.deliver(TOKEN, { update_id: 77, message: { message_id: 6, chat: { id: 42, type: 'private' }, text: 'hi' } });
      expect(receiver.received[1]!.payload!.update_id).toBe(77);
      // the bot's reply in that chat comes after the user's message
      expect((await result('sendMessage', { chat_id: 42, text: 'Welcome' })).message_id).toBe(7);
    });

    it('sends no secret header when none was set, and keeps a non-2xx answer as the last error', async () => {
      await result('setWebhook', { url: receiver.url });
      receiver.answerWith(500);
      const before = Math.floor(Date.now() / 1000);
      expect(await fake.deliver(TOKEN, { message: { message_id: 1, chat: { id: 1, type: 'private' }, text: 'x' } })).toEqual({ status: 500, body: 'ok' });
      expect(receiver.received[0]!.headers).not.toHaveProperty('x-telegram-bot-api-secret-token');
      const info = await result('getWebhookInfo');
      expect(info).toMatchObject({ last_error_message: 'Wrong response from the webhook: 500 Internal Server Error' });
      expect(info.last_error_date).toBeGreaterThanOrEqual(before);
    });

    it('records a refused connection as the last error and throws; throws when no webhook is set', async () => {
      await expect(fake.deliver(TOKEN, { message: {} })).rejects.toThrow(/no webhook/);
      const port = Number(new URL(receiver.url).port);
      await receiver.close();
      await result('setWebhook', { url: `http://127.0.0.1:${port}/gone` });
      await expect(fake.deliver(TOKEN, { message: {} })).rejects.toThrow();
      expect(await result('getWebhookInfo')).toMatchObject({ last_error_message: 'Connection refused' });
      receiver = await startWebhookReceiver('/again');
    });

    it('carries out a method the webhook answers with (a webhook reply)', async () => {
      const server: Server = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: 'sendMessage', chat_id: 42, text: 'pong' }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        await result('setWebhook', { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
        await fake.deliver(TOKEN, { message: { message_id: 1, chat: { id: 42, type: 'private' }, text: 'ping' } });
        expect(fake.callsTo('sendMessage')).toEqual([
          { token: TOKEN, method: 'sendMessage', params: { chat_id: 42, text: 'pong' }, at: expect.any(Number), viaWebhookReply: true },
        ]);
        expect(fake.sent.map((s) => s.text)).toEqual(['pong']);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe('getUpdates', () => {
    it('hands out queued updates and forgets those before the offset', async () => {
      fake.queueUpdate(TOKEN, { message: { message_id: 1, chat: { id: 1, type: 'private' }, text: 'a' } });
      fake.queueUpdate(TOKEN, { message: { message_id: 2, chat: { id: 1, type: 'private' }, text: 'b' } });
      const both = await result('getUpdates');
      expect(both.map((u: any) => u.message.text)).toEqual(['a', 'b']);
      expect(both[1].update_id).toBe(both[0].update_id + 1);
      expect(await result('getWebhookInfo')).toMatchObject({ pending_update_count: 2 });

      const second = await result('getUpdates', { offset: both[1].update_id });
      expect(second.map((u: any) => u.message.text)).toEqual(['b']);
      expect(await result('getUpdates', { offset: String(both[1].update_id + 1) })).toEqual([]);
      expect(await result('getWebhookInfo')).toMatchObject({ pending_update_count: 0 });
    });

    it('waits for an update on a long poll, and another long poll ends a waiting one with 409', async () => {
      let settled = false;
      const first = call('getUpdates', { timeout: 5 }).finally(() => (settled = true));
      await sleep(100);
      expect(settled).toBe(false);
      const second = call('getUpdates', { timeout: 5 });
      expect(await first).toMatchObject({
        status: 409,
        body: failure(409, 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running'),
      });
      await sleep(20);
      const started = Date.now();
      fake.queueUpdate(TOKEN, { callback_query: { id: 'cb-1', data: 'buy' } });
      const { body } = await second;
      expect(Date.now() - started).toBeLessThan(1000);
      expect(body.result).toEqual([{ update_id: expect.any(Number), callback_query: { id: 'cb-1', data: 'buy' } }]);
      // the query was handed out, so it can be answered (once)
      expect(await result('answerCallbackQuery', { callback_query_id: 'cb-1' })).toBe(true);
      expect(await call('answerCallbackQuery', { callback_query_id: 'cb-1' })).toMatchObject({ status: 400, body: failure(400, QUERY_ID_INVALID) });
    });

    it('answers 409 while a webhook is set, and setWebhook ends a waiting long poll with 409', async () => {
      const waiting = call('getUpdates', { timeout: 5 });
      await sleep(50);
      await result('setWebhook', { url: 'https://example.com/hook' });
      expect(await waiting).toMatchObject({ status: 409, body: failure(409, 'Conflict: terminated by setWebhook request') });
      expect(await call('getUpdates')).toMatchObject({
        status: 409,
        body: failure(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"),
      });
      await result('deleteWebhook');
      expect(await result('getUpdates')).toEqual([]);
    });
  });

  describe('sending messages', () => {
    it('answers sendMessage with the Message and records what was sent', async () => {
      const markup = { inline_keyboard: [[{ text: 'Buy', callback_data: 'buy:1' }]] };
      const message = await result('sendMessage', { chat_id: 42, text: 'Choose a plan', reply_markup: markup });
      expect(message).toEqual({
        message_id: 1,
        from: { id: BOT.id, is_bot: true, first_name: 'Storefront', username: 'storefront_test_bot' },
        chat: { id: 42, type: 'private' },
        date: expect.any(Number),
        text: 'Choose a plan',
        reply_markup: markup,
      });
      expect(fake.sent).toEqual([
        {
          token: TOKEN,
          method: 'sendMessage',
          chatId: 42,
          text: 'Choose a plan',
          replyMarkup: markup,
          messageId: 1,
          params: { chat_id: 42, text: 'Choose a plan', reply_markup: markup },
        },
      ]);
    });

    it('refuses what the server refuses: no text, no chat, too long, an unknown parse_mode', async () => {
      const refusals: Array<[Record<string, unknown>, string]> = [
        [{ chat_id: 42 }, 'Bad Request: message text is empty'],
        [{ chat_id: 42, text: '' }, 'Bad Request: message text is empty'],
        [{ text: 'hi' }, 'Bad Request: chat_id is empty'],
        [{ chat_id: 'nobody', text: 'hi' }, 'Bad Request: chat not found'],
        [{ chat_id: '@unknown_channel', text: 'hi' }, 'Bad Request: chat not found'],
        [{ chat_id: 42, text: 'x'.repeat(4097) }, 'Bad Request: message is too long'],
        [{ chat_id: 42, text: 'hi', parse_mode: 'BBCode' }, 'Bad Request: unsupported parse_mode'],
        [{ chat_id: 42, text: 'hi', reply_markup: '{oops' }, "Bad Request: can't parse reply keyboard markup JSON object"],
      ];
      for (const [params, description] of refusals) expect(await call('sendMessage', params)).toMatchObject({ status: 400, body: failure(400, description) });
      expect(await result('sendMessage', { chat_id: 42, text: 'x'.repeat(4096) })).toMatchObject({ message_id: 1 });
      expect(fake.sent).toHaveLength(1);
    });

    it('answers 403 "Forbidden: bot was blocked by the user" for a chat that blocked the bot, and sends nothing', async () => {
      fake.blockChat(42);
      expect(await call('sendMessage', { chat_id: '42', text: 'Your key expires soon' })).toMatchObject({
        status: 403,
        body: failure(403, 'Forbidden: bot was blocked by the user'),
      });
      expect(fake.sent).toEqual([]);
      fake.unblockChat(42);
      await result('sendMessage', { chat_id: 42, text: 'Your key expires soon' });
    });

    it('fails the next call of a method once with the failure given', async () => {
      fake.failNext('sendMessage', { error_code: 500, description: 'Internal Server Error: restart' });
      expect(await call('getMe')).toMatchObject({ status: 200 });
      expect(await call('sendMessage', { chat_id: 42, text: 'a' })).toMatchObject({ status: 500, body: failure(500, 'Internal Server Error: restart') });
      expect(fake.sent).toEqual([]);
      expect(await call('sendMessage', { chat_id: 42, text: 'b' })).toMatchObject({ status: 200 });
      fake.failNext('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } });
      const limited = await call('sendMessage', { chat_id: 42, text: 'c' });
      expect(limited.body).toEqual(failure(429, 'Too Many Requests: retry after 7', { retry_after: 7 }));
      expect(limited.headers.get('retry-after')).toBe('7');
    });

    it('edits a sent message, refusing an unknown one and an edit that changes nothing', async () => {
      const { message_id } = await result('sendMessage', { chat_id: 42, text: 'Paying…' });
      const edited = await result('editMessageText', { chat_id: 42, message_id, text: 'Paid' });
      expect(edited).toMatchObject({ message_id, text: 'Paid', edit_date: expect.any(Number) });
      expect(await call('editMessageText', { chat_id: 42, message_id, text: 'Paid' })).toMatchObject({
        status: 400,
        body: failure(
          400,
          'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
        ),
      });
      expect(await call('editMessageText', { chat_id: 42, message_id: 99, text: 'x' })).toMatchObject({
        body: failure(400, 'Bad Request: message to edit not found'),
      });
      expect(fake.sent.map((s) => [s.method, s.text])).toEqual([
        ['sendMessage', 'Paying…'],
        ['editMessageText', 'Paid'],
      ]);
    });

    it('limits sends when asked: per second per bot, and one a second per chat after a burst, with retry_after', async () => {
      fake.limitSends({ perSecond: 2 });
      await result('sendMessage', { chat_id: 1, text: 'a' });
      await result('sendMessage', { chat_id: 2, text: 'b' });
      const limited = await call('sendMessage', { chat_id: 3, text: 'c' });
      expect(limited).toMatchObject({ status: 429, body: failure(429, 'Too Many Requests: retry after 1', { retry_after: 1 }) });
      expect(limited.headers.get('retry-after')).toBe('1');

      fake.limitSends({ perSecond: 30 });
      for (const text of ['1', '2', '3']) await result('sendMessage', { chat_id: 7, text });
      expect(await call('sendMessage', { chat_id: 7, text: '4' })).toMatchObject({ status: 429, body: { parameters: { retry_after: 1 } } });
      await result('sendMessage', { chat_id: 8, text: 'another chat' });

      fake.limitSends(null);
      for (const text of ['5', '6', '7', '8']) await result('sendMessage', { chat_id: 7, text });
      expect(fake.sent.map((s) => s.text)).toEqual(['a', 'b', '1', '2', '3', 'another chat', '5', '6', '7', '8']);
    });
  });

  describe('sendPhoto', () => {
    it("reads grammY's multipart body (bare file name, attach://) and records the part as a file", async () => {
      const boundary = '----------k3j5h6g7f8d9s0a1q2w3e4r5t6y7u8i9';
      const field = (name: string, value: string) => `content-disposition:form-data;name="${name}"\r\n\r\n${value}`;
      const markup = { inline_keyboard: [[{ text: 'Open', url: 'https://example.com/key' }]] };
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\n${field('chat_id', '42')}`),
        Buffer.from(`\r\n--${boundary}\r\n${field('photo', 'attach://f1x2y3')}`),
        Buffer.from(`\r\n--${boundary}\r\n${field('caption', 'Scan to connect')}`),
        Buffer.from(`\r\n--${boundary}\r\n${field('reply_markup', JSON.stringify(markup))}`),
        Buffer.from(`\r\n--${boundary}\r\ncontent-disposition:form-data;name="f1x2y3";filename=photo.jpg\r\ncontent-type:application/octet-stream\r\n\r\n`),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const response = await fetch(`${fake.url}/bot${TOKEN}/sendPhoto`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      const answer = (await response.json()) as Envelope;
      expect(response.status).toBe(200);
      expect(answer.result).toMatchObject({ chat: { id: 42 }, caption: 'Scan to connect', reply_markup: markup });
      expect(answer.result.photo).toEqual([{ file_id: expect.any(String), file_unique_id: expect.any(String), file_size: PNG.length, width: 1, height: 1 }]);
      const file = { filename: 'photo.jpg', contentType: 'application/octet-stream', size: PNG.length };
      expect(fake.callsTo('sendPhoto')[0]!.params).toEqual({ chat_id: '42', photo: file, caption: 'Scan to connect', reply_markup: JSON.stringify(markup) });
      expect(fake.sent).toEqual([
        expect.objectContaining({
          method: 'sendPhoto',
          chatId: 42,
          caption: 'Scan to connect',
          replyMarkup: markup,
          params: fake.callsTo('sendPhoto')[0]!.params,
        }),
      ]);

      // the file_id it got back sends the same photo again
      const again = await result('sendPhoto', { chat_id: 42, photo: answer.result.photo[0].file_id });
      expect(again.photo).toEqual(answer.result.photo);
    });

    it('reads a browser-style FormData part, takes a URL, and refuses what is not a photo', async () => {
      const form = new FormData();
      form.append('chat_id', '42');
      form.append('photo', new Blob([PNG], { type: 'image/png' }), 'qr.png');
      const response = await fetch(`${fake.url}/bot${TOKEN}/sendPhoto`, { method: 'POST', body: form });
      expect(response.status).toBe(200);
      expect(fake.callsTo('sendPhoto')[0]!.params.photo).toEqual({ filename: 'qr.png', contentType: 'image/png', size: PNG.length });

      expect(await result('sendPhoto', { chat_id: 42, photo: 'https://example.com/qr.png' })).toMatchObject({ photo: [{ width: expect.any(Number) }] });
      const text = new FormData();
      text.append('chat_id', '42');
      text.append('photo', new Blob(['not an image'], { type: 'text/plain' }), 'notes.txt');
      expect(await (await fetch(`${fake.url}/bot${TOKEN}/sendPhoto`, { method: 'POST', body: text })).json()).toEqual(
        failure(400, 'Bad Request: IMAGE_PROCESS_FAILED'),
      );
      expect(await call('sendPhoto', { chat_id: 42 })).toMatchObject({ body: failure(400, 'Bad Request: there is no photo in the request') });
      expect(await call('sendPhoto', { chat_id: 42, photo: 'no-such-file-id' })).toMatchObject({
        body: failure(400, 'Bad Request: wrong file identifier/HTTP URL specified'),
      });
    });
  });

  describe('payments in Telegram Stars', () => {
    const invoice = {
      chat_id: 42,
      title: 'VPN, 1 month',
      description: 'Unlimited traffic',
      payload: 'order-17',
      currency: 'XTR',
      prices: [{ label: '1 month', amount: 250 }],
    };

    it('sends an XTR invoice with an empty provider_token and exactly one price', async () => {
      const message = await result('sendInvoice', { ...invoice, provider_token: '' });
      expect(message).toMatchObject({
        chat: { id: 42 },
        invoice: { title: 'VPN, 1 month', description: 'Unlimited traffic', start_parameter: '', currency: 'XTR', total_amount: 250 },
      });
      // prices as the JSON text a form carries
      await result('sendInvoice', { ...invoice, prices: JSON.stringify(invoice.prices) });
      expect(fake.invoices.map((i) => [i.method, i.payload, i.prices])).toEqual([
        ['sendInvoice', 'order-17', [{ label: '1 month', amount: 250 }]],
        ['sendInvoice', 'order-17', [{ label: '1 month', amount: 250 }]],
      ]);
    });

    it('refuses XTR invoices Telegram refuses, and prices the server cannot read', async () => {
      const refusals: Array<[Record<string, unknown>, string]> = [
        [{ ...invoice, provider_token: '284685063:TEST:abc' }, 'Bad Request: STARS_INVOICE_INVALID'],
        [{ ...invoice, prices: [...invoice.prices, { label: 'Tax', amount: 10 }] }, 'Bad Request: STARS_INVOICE_INVALID'],
        [{ ...invoice, currency: 'USD' }, 'Bad Request: PAYMENT_PROVIDER_INVALID'],
        [{ ...invoice, prices: undefined }, 'Bad Request: parameter "prices" is required'],
        [{ ...invoice, prices: 'not json' }, "Bad Request: can't parse prices JSON object"],
        [{ ...invoice, prices: { label: 'x', amount: 1 } }, 'Bad Request: expected an Array of labeled prices'],
        [{ ...invoice, prices: [] }, 'Bad Request: there must be at least one price'],
        [{ ...invoice, prices: [{ amount: 1 }] }, 'Bad Request: can\'t parse labeled price: Can\'t find field "label"'],
        [{ ...invoice, prices: [{ label: 'x', amount: 0 }] }, 'Bad Request: total price must be positive'],
        [{ ...invoice, title: '' }, 'Bad Request: parameter "title" is required'],
      ];
      for (const [params, description] of refusals) expect(await call('sendInvoice', params)).toMatchObject({ status: 400, body: failure(400, description) });
      expect(fake.invoices).toEqual([]);
      expect(fake.sent).toEqual([]);
    });

    it('makes invoice links, a subscription only for 2592000 seconds', async () => {
      const { chat_id: _chat, ...link } = invoice;
      expect(await result('createInvoiceLink', { ...link, subscription_period: 2592000 })).toMatch(/^https:\/\/t\.me\/\$[\w-]+$/);
      expect(await call('createInvoiceLink', { ...link, subscription_period: 86400 })).toMatchObject({
        status: 400,
        body: failure(400, 'Bad Request: SUBSCRIPTION_PERIOD_INVALID'),
      });
      expect(fake.invoices).toEqual([
        expect.objectContaining({ method: 'createInvoiceLink', subscriptionPeriod: 2592000, link: expect.stringMatching(/^https:\/\/t\.me\/\$/) }),
      ]);
    });

    it('takes one answer to a pre-checkout query it handed out, and records when it came', async () => {
      const query = {
        id: '4382bfdwdsb323b2d9',
        from: { id: 42, is_bot: false, first_name: 'Ann' },
        currency: 'XTR',
        total_amount: 250,
        invoice_payload: 'order-17',
      };
      fake.queueUpdate(TOKEN, { pre_checkout_query: query });
      expect(await call('answerPreCheckoutQuery', { pre_checkout_query_id: query.id, ok: true })).toMatchObject({ body: failure(400, QUERY_ID_INVALID) }); // not yet handed out
      await result('getUpdates');
      expect(await call('answerPreCheckoutQuery', { pre_checkout_query_id: query.id, ok: false })).toMatchObject({
        status: 400,
        body: failure(400, 'Bad Request: parameter "error_message" is required'),
      });
      expect(await result('answerPreCheckoutQuery', { pre_checkout_query_id: query.id, ok: true })).toBe(true);
      expect(await call('answerPreCheckoutQuery', { pre_checkout_query_id: query.id, ok: true })).toMatchObject({
        status: 400,
        body: failure(400, QUERY_ID_INVALID),
      });
      const [answer] = fake.preCheckoutAnswers;
      expect(answer).toMatchObject({ token: TOKEN, queryId: query.id, ok: true, errorMessage: null });
      expect(answer!.answeredAt - answer!.sentAt).toBeLessThan(10_000);
    });

    it('refuses an answer later than 10 seconds after the query was delivered', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const receiver = await startWebhookReceiver('/hook');
      try {
        await result('setWebhook', { url: receiver.url });
        await fake.deliver(TOKEN, { pre_checkout_query: { id: 'late', from: { id: 42 }, currency: 'XTR', total_amount: 1, invoice_payload: 'p' } });
        vi.setSystemTime(Date.now() + 10_001);
        expect(await call('answerPreCheckoutQuery', { pre_checkout_query_id: 'late', ok: false, error_message: 'Sold out' })).toMatchObject({
          body: failure(400, QUERY_ID_INVALID),
        });
        expect(fake.preCheckoutAnswers).toEqual([]);
      } finally {
        await receiver.close();
      }
    });

    it('refunds a payment it knows once: CHARGE_ALREADY_REFUNDED after, CHARGE_NOT_FOUND for another charge', async () => {
      fake.recordStarPayment(TOKEN, { userId: 42, chargeId: 'stxA1b2C3', amount: 250 });
      const refund = { user_id: 42, telegram_payment_charge_id: 'stxA1b2C3' };
      expect(await call('refundStarPayment', refund)).toEqual({ status: 200, headers: expect.anything(), body: { ok: true, result: true } });
      expect(await call('refundStarPayment', refund)).toMatchObject({ status: 400, body: failure(400, 'Bad Request: CHARGE_ALREADY_REFUNDED') });
      expect(await call('refundStarPayment', { ...refund, telegram_payment_charge_id: 'stxUnknown' })).toMatchObject({
        body: failure(400, 'Bad Request: CHARGE_NOT_FOUND'),
      });
      expect(await call('refundStarPayment', { telegram_payment_charge_id: 'stxA1b2C3' })).toMatchObject({
        body: failure(400, 'Bad Request: invalid user_id specified'),
      });
      expect(await call('refundStarPayment', { user_id: 42 })).toMatchObject({
        body: failure(400, 'Bad Request: parameter "telegram_payment_charge_id" is required'),
      });
      expect(fake.refunds).toEqual([{ token: TOKEN, userId: 42, chargeId: 'stxA1b2C3', amount: 250, at: expect.any(Number) }]);
    });

    describe('getStarTransactions', () => {
      it('lists the Star transactions oldest first: each payment, and a refund as a transaction of its own', async () => {
        fake.recordStarPayment(TOKEN, { userId: 42, chargeId: 'stxNew', amount: 250, payload: 'order-17', date: 1_760_000_100, firstName: 'Ann' });
        fake.recordStarPayment(TOKEN, { userId: 43, chargeId: 'stxOld', amount: 100, payload: 'sub-1', date: 1_760_000_000, subscriptionPeriod: 2_592_000 });
        await result('refundStarPayment', { user_id: 42, telegram_payment_charge_id: 'stxNew' });
        const ann = { transaction_type: 'invoice_payment', type: 'user', user: { id: 42, is_bot: false, first_name: 'Ann' }, invoice_payload: 'order-17' };
        expect(await result('getStarTransactions')).toEqual({
          transactions: [
            {
              id: 'stxOld',
              date: 1_760_000_000,
              source: {
                transaction_type: 'invoice_payment',
                type: 'user',
                user: { id: 43, is_bot: false, first_name: 'User 43' },
                invoice_payload: 'sub-1',
                subscription_period: 2_592_000,
              },
              amount: 100,
            },
            { id: 'stxNew', date: 1_760_000_100, source: ann, amount: 250 },
            { id: 'stxNew', date: Math.floor(fake.refunds[0]!.at / 1000), receiver: ann, amount: 250 },
          ],
        });
        // a payment recorded with no payload lists none, as the server leaves out an empty one
        fake.recordStarPayment(TOKEN, { userId: 44, chargeId: 'stxBare', amount: 5 });
        expect((await result('getStarTransactions', { offset: 3 })).transactions).toEqual([
          {
            id: 'stxBare',
            date: expect.any(Number),
            source: { transaction_type: 'invoice_payment', type: 'user', user: { id: 44, is_bot: false, first_name: 'User 44' } },
            amount: 5,
          },
        ]);
      });

      it('reads offset and limit as the server does: clamped (limit 1..100, 100 by default; offset 0 or more), never refused', async () => {
        for (let i = 0; i < 102; i++) fake.recordStarPayment(TOKEN, { userId: 42, chargeId: `stx${i}`, amount: 1, date: 1_760_000_000 + i });
        const ids = async (params: Record<string, unknown>, as: 'json' | 'form' = 'json') => {
          const { status, body } = await call('getStarTransactions', params, { as });
          expect(status).toBe(200);
          return (body.result.transactions as Array<{ id: string }>).map((transaction) => transaction.id);
        };
        const all = await ids({});
        expect(all).toHaveLength(100);
        expect(all.slice(0, 2)).toEqual(['stx0', 'stx1']);
        expect(await ids({ limit: 0 })).toEqual(['stx0']);
        expect(await ids({ limit: -5, offset: -3 })).toEqual(['stx0']);
        expect(await ids({ limit: 1000 })).toEqual(all);
        expect(await ids({ offset: 100, limit: 'many' })).toEqual(['stx100']); // td::to_integer("many") is 0, clamped to 1
        expect(await ids({ offset: '100', limit: '10' }, 'form')).toEqual(['stx100', 'stx101']);
        expect(await ids({ offset: 500 })).toEqual([]);
      });
    });

    describe('payInvoice', () => {
      const { chat_id: _chat, ...linkInvoice } = invoice;

      /**
       * A bot behind a webhook that keeps each update and answers a pre_checkout_query by calling answerPreCheckoutQuery
       * (`call`), in its webhook reply (`reply`), or not at all (`none`); ok=false with "Sold out" when `refuse`.
       */
      async function startBot(how: 'call' | 'reply' | 'none', refuse = false) {
        const updates: Array<Record<string, any>> = [];
        const answerTo = (id: string) =>
          refuse ? { pre_checkout_query_id: id, ok: false, error_message: 'Sold out' } : { pre_checkout_query_id: id, ok: true };
        async function handle(body: string): Promise<string> {
          const update = JSON.parse(body) as Record<string, any>;
          updates.push(update);
          const query = update.pre_checkout_query as { id: string } | undefined;
          if (query && how === 'call') await call('answerPreCheckoutQuery', answerTo(query.id));
          if (query && how === 'reply') return JSON.stringify({ method: 'answerPreCheckoutQuery', ...answerTo(query.id) });
          return '';
        }
        const server = createServer((req, res) => {
          const chunks: Buffer[] = [];
          req.on('data', (chunk: Buffer) => chunks.push(chunk));
          req.on('end', () => {
            void handle(Buffer.concat(chunks).toString('utf8')).then((reply) => {
              res.writeHead(200, reply ? { 'content-type': 'application/json' } : {});
              res.end(reply);
            });
          });
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        await result('setWebhook', { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bot` });
        return { updates, close: () => new Promise((resolve) => server.close(resolve)) };
      }

      it('pays an invoice link the bot approves: the pre-checkout query, the payment, the successful_payment message', async () => {
        const bot = await startBot('call');
        try {
          const link = await result('createInvoiceLink', linkInvoice);
          const paid = await fake.payInvoice(TOKEN, { userId: 42, firstName: 'Ann', languageCode: 'en', link });
          const ann = { id: 42, is_bot: false, first_name: 'Ann', language_code: 'en' };
          const [checkout, payment] = bot.updates;
          expect(checkout).toEqual({
            update_id: expect.any(Number),
            pre_checkout_query: { id: expect.stringMatching(/^\d+$/), from: ann, currency: 'XTR', total_amount: 250, invoice_payload: 'order-17' },
          });
          expect(paid).toEqual({ approved: true, errorMessage: null, chargeId: expect.stringMatching(/^stx[\w-]{104}$/), successfulPaymentUpdate: payment });
          expect(payment).toEqual({
            update_id: checkout!.update_id + 1,
            message: {
              message_id: 1,
              from: ann,
              chat: { id: 42, first_name: 'Ann', type: 'private' },
              date: expect.any(Number),
              successful_payment: {
                currency: 'XTR',
                total_amount: 250,
                invoice_payload: 'order-17',
                telegram_payment_charge_id: paid.chargeId,
                provider_payment_charge_id: '42_1',
              },
            },
          });
          expect(fake.preCheckoutAnswers).toEqual([expect.objectContaining({ token: TOKEN, queryId: checkout!.pre_checkout_query.id, ok: true })]);
          expect(await result('getStarTransactions')).toEqual({
            transactions: [
              {
                id: paid.chargeId,
                date: payment!.message.date,
                source: { transaction_type: 'invoice_payment', type: 'user', user: ann, invoice_payload: 'order-17' },
                amount: 250,
              },
            ],
          });
          // Telegram may deliver the message again: the same update, update_id and all
          await fake.deliver(TOKEN, paid.successfulPaymentUpdate!);
          expect(bot.updates[2]).toEqual(payment);
          // the bot's reply in that chat comes after the payment's message; the payment can be refunded
          expect((await result('sendMessage', { chat_id: 42, text: 'Thank you' })).message_id).toBe(2);
          expect(await result('refundStarPayment', { user_id: 42, telegram_payment_charge_id: paid.chargeId })).toBe(true);
        } finally {
          await bot.close();
        }
      });

      it('pays a subscription link by its payload over getUpdates: successful_payment says recurring, first, and until when', async () => {
        await result('createInvoiceLink', { ...linkInvoice, payload: 'sub-1', subscription_period: 2592000 });
        const paying = fake.payInvoice(TOKEN, { userId: 43, payload: 'sub-1' });
        const [update] = await result('getUpdates', { timeout: 5 });
        expect(update.pre_checkout_query).toMatchObject({
          from: { id: 43, is_bot: false, first_name: 'User 43' },
          total_amount: 250,
          invoice_payload: 'sub-1',
        });
        await result('answerPreCheckoutQuery', { pre_checkout_query_id: update.pre_checkout_query.id, ok: true });
        const paid = await paying;
        expect(paid.approved).toBe(true);
        const [paidUpdate] = await result('getUpdates', { offset: update.update_id + 1 });
        expect(paidUpdate).toEqual(paid.successfulPaymentUpdate);
        const { date, successful_payment } = paidUpdate.message;
        expect(successful_payment).toEqual({
          currency: 'XTR',
          total_amount: 250,
          invoice_payload: 'sub-1',
          telegram_payment_charge_id: paid.chargeId,
          provider_payment_charge_id: '43_1',
          is_recurring: true,
          is_first_recurring: true,
          subscription_expiration_date: date + 2592000,
        });
        expect((await result('getStarTransactions')).transactions).toEqual([
          expect.objectContaining({ id: paid.chargeId, source: expect.objectContaining({ invoice_payload: 'sub-1', subscription_period: 2592000 }) }),
        ]);
      });

      it('makes no payment when the bot refuses (here in its webhook reply), and hands back its error_message', async () => {
        await result('sendInvoice', invoice);
        const bot = await startBot('reply', true);
        try {
          expect(await fake.payInvoice(TOKEN, { userId: 42, payload: 'order-17' })).toEqual({
            approved: false,
            errorMessage: 'Sold out',
            chargeId: null,
            successfulPaymentUpdate: null,
          });
          expect(bot.updates.map((update) => Object.keys(update))).toEqual([['update_id', 'pre_checkout_query']]);
          expect(fake.callsTo('answerPreCheckoutQuery')).toEqual([expect.objectContaining({ viaWebhookReply: true })]);
          expect(fake.preCheckoutAnswers).toEqual([expect.objectContaining({ ok: false, errorMessage: 'Sold out' })]);
          expect(await result('getStarTransactions')).toEqual({ transactions: [] });
        } finally {
          await bot.close();
        }
      });

      it('gives up when the bot does not answer in time, and refuses its answer after that', async () => {
        const bot = await startBot('none');
        try {
          const link = await result('createInvoiceLink', linkInvoice);
          const started = Date.now();
          expect(await fake.payInvoice(TOKEN, { userId: 42, link, answerWithinMs: 200 })).toEqual({
            approved: false,
            errorMessage: null,
            chargeId: null,
            successfulPaymentUpdate: null,
          });
          expect(Date.now() - started).toBeGreaterThanOrEqual(190);
          const [checkout] = bot.updates;
          expect(await call('answerPreCheckoutQuery', { pre_checkout_query_id: checkout!.pre_checkout_query.id, ok: true })).toMatchObject({
            status: 400,
            body: failure(400, QUERY_ID_INVALID),
          });
          expect(bot.updates).toHaveLength(1);
          expect(await result('getStarTransactions')).toEqual({ transactions: [] });
        } finally {
          await bot.close();
        }
      });

      it('sends no pre-checkout query the bot did not allow in allowed_updates, so the payment fails', async () => {
        await result('getUpdates', { allowed_updates: ['message'] });
        const link = await result('createInvoiceLink', linkInvoice);
        expect(await fake.payInvoice(TOKEN, { userId: 42, link, answerWithinMs: 50 })).toMatchObject({ approved: false, errorMessage: null });
        expect(await result('getUpdates')).toEqual([]);
      });

      it('throws for an invoice the fake never made or one not in Stars', async () => {
        await expect(fake.payInvoice(TOKEN, { userId: 42, link: 'https://t.me/$nope' })).rejects.toThrow(/made no invoice link/);
        await expect(fake.payInvoice(TOKEN, { userId: 42, payload: 'order-17' })).rejects.toThrow(/made no invoice with the payload/);
        await expect(fake.payInvoice(TOKEN, { userId: 42 })).rejects.toThrow(/the link or the payload/);
        const link = await result('createInvoiceLink', { ...linkInvoice, currency: 'USD', provider_token: '284685063:TEST:abc' });
        await expect(fake.payInvoice(TOKEN, { userId: 42, link })).rejects.toThrow(/Telegram Stars \(XTR\), not USD/);
        expect(fake.calls.filter((c) => c.method === 'answerPreCheckoutQuery')).toEqual([]);
      });
    });

    describe('subscriptions', () => {
      const PERIOD = 2_592_000;
      const START = 1_780_000_000;
      const subscribe = (chargeId = 'stxFirst', userId = 43) =>
        fake.recordStarPayment(TOKEN, { userId, chargeId, amount: 250, payload: 'sub-1', date: START, subscriptionPeriod: PERIOD });

      it('renews as the period ends: a new charge in the Star transactions, and successful_payment with is_recurring and the next expiry', async () => {
        subscribe();
        expect(fake.starSubscription(TOKEN, 'stxFirst')).toEqual({
          userId: 43,
          payload: 'sub-1',
          amount: 250,
          until: START + PERIOD,
          canceledByBot: false,
          lapsed: false,
        });
        const renewal = await fake.renewStarSubscription(TOKEN, 'stxFirst');
        expect(renewal).toMatchObject({ renewed: true, chargeId: expect.stringMatching(/^stx[\w-]{104}$/), until: START + 2 * PERIOD });
        expect(renewal.chargeId).not.toBe('stxFirst');
        const [update] = await result('getUpdates');
        expect(update).toEqual(renewal.successfulPaymentUpdate);
        expect(update.message).toMatchObject({ date: START + PERIOD, chat: { id: 43, type: 'private' }, from: { id: 43, is_bot: false } });
        expect(update.message.successful_payment).toEqual({
          currency: 'XTR',
          total_amount: 250,
          invoice_payload: 'sub-1',
          telegram_payment_charge_id: renewal.chargeId,
          provider_payment_charge_id: '43_2',
          is_recurring: true,
          subscription_expiration_date: START + 2 * PERIOD,
        });
        expect((await result('getStarTransactions')).transactions.map((t: any) => [t.id, t.date, t.source.subscription_period])).toEqual([
          ['stxFirst', START, PERIOD],
          [renewal.chargeId, START + PERIOD, PERIOD],
        ]);

        // Charged late, the next period runs from the charge; an update lost is still a charge made.
        const late = await fake.renewStarSubscription(TOKEN, 'stxFirst', { date: START + 2 * PERIOD + 600, deliver: false });
        expect(late).toMatchObject({ renewed: true, until: START + 3 * PERIOD + 600, successfulPaymentUpdate: null });
        expect(await result('getUpdates', { offset: update.update_id + 1 })).toEqual([]);
        expect((await result('getStarTransactions')).transactions).toHaveLength(3);
      });

      it('takes editUserStarSubscription for the charge that started it: off, it is not charged and lapses; back on, it renews', async () => {
        subscribe();
        const edit = (params: Record<string, unknown>, as: 'json' | 'form' = 'json') =>
          call('editUserStarSubscription', { user_id: 43, telegram_payment_charge_id: 'stxFirst', ...params }, { as });
        expect((await edit({ is_canceled: true })).body).toEqual({ ok: true, result: true });
        expect(fake.starSubscription(TOKEN, 'stxFirst')).toMatchObject({ canceledByBot: true });
        expect((await edit({ is_canceled: 'false' }, 'form')).body).toEqual({ ok: true, result: true });
        const renewal = await fake.renewStarSubscription(TOKEN, 'stxFirst', { deliver: false });
        expect(renewal.renewed).toBe(true);

        const invalid = failure(400, 'Bad Request: CHARGE_ID_INVALID');
        expect(await edit({ is_canceled: true, telegram_payment_charge_id: 'stxUnknown' })).toMatchObject({ status: 400, body: invalid });
        expect(await edit({ is_canceled: true, user_id: 44 })).toMatchObject({ status: 400, body: invalid });
        expect(await edit({ is_canceled: true, telegram_payment_charge_id: renewal.chargeId })).toMatchObject({ status: 400, body: invalid });
        expect(await edit({ is_canceled: true, user_id: 0 })).toMatchObject({ status: 400, body: failure(400, 'Bad Request: invalid user_id specified') });
        expect(fake.starSubscription(TOKEN, 'stxFirst')).toMatchObject({ canceledByBot: false });

        expect((await edit({ is_canceled: 1 })).body).toEqual({ ok: true, result: true });
        const until = fake.starSubscription(TOKEN, 'stxFirst')!.until;
        const transactions = (await result('getStarTransactions')).transactions.length;
        expect(await fake.renewStarSubscription(TOKEN, 'stxFirst')).toEqual({ renewed: false, chargeId: null, until, successfulPaymentUpdate: null });
        expect(fake.starSubscription(TOKEN, 'stxFirst')).toMatchObject({ lapsed: true, until });
        expect((await result('getStarTransactions')).transactions).toHaveLength(transactions);
        expect(await result('getUpdates')).toEqual([]);
        await expect(fake.renewStarSubscription(TOKEN, 'stxFirst')).rejects.toThrow(/lapsed/);
        await expect(fake.renewStarSubscription(TOKEN, 'stxNever')).rejects.toThrow(/no subscription/);
      });

      it('starts one subscription per user and invoice: a recorded payment with the same payload is not another', async () => {
        subscribe();
        fake.recordStarPayment(TOKEN, { userId: 43, chargeId: 'stxAgain', amount: 250, payload: 'sub-1', date: START + PERIOD, subscriptionPeriod: PERIOD });
        subscribe('stxOther', 44);
        expect(fake.starSubscription(TOKEN, 'stxAgain')).toBeNull();
        expect(fake.starSubscription(TOKEN, 'stxOther')).toMatchObject({ userId: 44 });
      });
    });
  });

  describe('bot settings and chat members', () => {
    it('answers getChatMember from setChatMember: "chat not found" for a chat never set, left for a stranger', async () => {
      expect(await call('getChatMember', { chat_id: '@vpn_news', user_id: 42 })).toMatchObject({
        status: 400,
        body: failure(400, 'Bad Request: chat not found'),
      });
      fake.setChatMember('@VPN_news', 42, 'member');
      fake.setChatMember(-1001234567890, 43, 'kicked');
      expect(await result('getChatMember', { chat_id: '@vpn_news', user_id: '42' })).toEqual({
        user: { id: 42, is_bot: false, first_name: 'User 42' },
        status: 'member',
      });
      expect(await result('getChatMember', { chat_id: '@vpn_news', user_id: 44 })).toMatchObject({ status: 'left' });
      expect(await result('getChatMember', { chat_id: '-1001234567890', user_id: 43 })).toMatchObject({ status: 'kicked', until_date: 0 });
      expect(await call('getChatMember', { chat_id: '@vpn_news' })).toMatchObject({ body: failure(400, 'Bad Request: invalid user_id specified') });
    });

    it('keeps commands per scope and language, and menu buttons per chat', async () => {
      const commands = [
        { command: 'start', description: 'Start' },
        { command: 'buy', description: 'Buy a plan' },
      ];
      expect(await result('setMyCommands', { commands })).toBe(true);
      await result('setMyCommands', { commands: [{ command: 'start', description: 'Начать' }], language_code: 'ru' });
      expect(await result('getMyCommands')).toEqual(commands);
      expect(await result('getMyCommands', { language_code: 'ru' })).toEqual([{ command: 'start', description: 'Начать' }]);
      expect(await call('setMyCommands', { commands: [{ command: 'Bad Command', description: 'x' }] })).toMatchObject({
        body: failure(400, 'Bad Request: BOT_COMMAND_INVALID'),
      });

      expect(await result('getChatMenuButton')).toEqual({ type: 'commands' });
      const webApp = { type: 'web_app', text: 'Open shop', web_app: { url: 'https://shop.example.com/tg' } };
      await result('setChatMenuButton', { menu_button: webApp });
      await result('setChatMenuButton', { chat_id: 42, menu_button: { type: 'default' } });
      expect(await result('getChatMenuButton')).toEqual(webApp);
      expect(await result('getChatMenuButton', { chat_id: 42 })).toEqual({ type: 'default' });
      expect(await call('setChatMenuButton', { menu_button: { type: 'rainbow' } })).toMatchObject({
        body: failure(400, "Bad Request: can't parse menu button: MenuButton has unsupported type"),
      });
      expect(await result('logOut')).toBe(true);
    });
  });
});
