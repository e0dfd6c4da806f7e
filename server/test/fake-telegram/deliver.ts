import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { gunzipSync, inflateSync } from 'node:zlib';
import { isObject } from './args.js';
import { callMethod } from './methods.js';
import { type BotState, unixTime, type World } from './state.js';
import { openQueries, stampUpdate } from './updates.js';
import { parseWebhookUrl } from './webhooks.js';

const WEBHOOK_TIMEOUT_MS = 10_000;

interface WebhookAnswer {
  status: number;
  reason: string;
  contentType: string;
  body: string;
}

/** One POST as WebhookActor::send_update makes it (WebhookActor.cpp:554-566): JSON, keep-alive, gzip accepted. */
function postUpdate(target: URL, body: string, secretToken: string, signal: AbortSignal): Promise<WebhookAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'accept-encoding': 'gzip, deflate',
    };
    if (secretToken !== '') headers['x-telegram-bot-api-secret-token'] = secretToken;
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { method: 'POST', agent: false, signal, headers });
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })), WEBHOOK_TIMEOUT_MS);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      reject(error);
    };
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        const raw = Buffer.concat(chunks);
        const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
        const bytes = encoding === 'gzip' ? gunzipSync(raw) : encoding === 'deflate' ? inflateSync(raw) : raw;
        resolve({
          status: res.statusCode ?? 0,
          reason: res.statusMessage ?? '',
          contentType: String(res.headers['content-type'] ?? ''),
          body: bytes.toString('utf8'),
        });
      });
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** How getWebhookInfo names a failed connection (the words Telegram shows; they come from the system, not the source). */
function connectionErrorMessage(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (code === 'ECONNRESET') return 'Connection reset by peer';
  if (code === 'ETIMEDOUT') return 'Read timeout expired';
  return error instanceof Error ? error.message : String(error);
}

/** Methods a webhook answer may not carry (WebhookActor.cpp:628-630). */
function isWebhookReplyMethod(method: string): boolean {
  const name = method.toLowerCase();
  return name !== '' && !['deletewebhook', 'setwebhook', 'close', 'logout'].includes(name) && !name.startsWith('get');
}

/** deliver(): one POST of the update to the bot's webhook, its outcome kept as Telegram keeps it. */
export async function deliverUpdate(world: World, bot: BotState, update: Record<string, unknown>): Promise<{ status: number; body: string }> {
  const webhook = bot.webhook;
  if (!webhook) throw new Error(`fake Telegram: bot @${bot.info.username} has no webhook set`);
  const stamped = stampUpdate(bot, update);
  openQueries(bot, stamped, Date.now());
  let answer: WebhookAnswer;
  try {
    answer = await postUpdate(parseWebhookUrl(webhook.url)!, JSON.stringify(stamped), webhook.secretToken, world.shutdown.signal);
  } catch (error) {
    bot.lastError = { date: unixTime(Date.now()), message: connectionErrorMessage(error) };
    throw error;
  }
  if (answer.status < 200 || answer.status > 299) {
    bot.lastError = { date: unixTime(Date.now()), message: `Wrong response from the webhook: ${answer.status} ${answer.reason}` }; // WebhookActor.cpp:636
  } else if (answer.contentType.toLowerCase().includes('application/json')) {
    await carryOutWebhookReply(world, bot, answer.body);
  }
  return { status: answer.status, body: answer.body };
}

/** A method in the webhook's answer is carried out for the bot; its result goes to nobody (WebhookActor.cpp:624-641). */
async function carryOutWebhookReply(world: World, bot: BotState, body: string): Promise<void> {
  let reply: unknown;
  try {
    reply = JSON.parse(body);
  } catch {
    return;
  }
  if (!isObject(reply) || typeof reply.method !== 'string' || !isWebhookReplyMethod(reply.method)) return;
  const { method, ...params } = reply;
  await callMethod(world, { token: bot.token, method, params, socket: null, viaWebhookReply: true });
}
