// ---- webhooks ----
import { isIP } from 'node:net';
import { argBool, argInt, argText } from './args.js';
import { TelegramError, TEXT, tooManyRequests } from './errors.js';
import { UploadedFile } from './params.js';
import { type MethodCall, type MethodResult, ok } from './state.js';
import { abortLongPoll, updateAllowedUpdates } from './updates.js';

const DEFAULT_MAX_CONNECTIONS = 40; // telegram-bot-api.cpp:444-445
const WEBHOOK_PORTS = new Set([443, 80, 88, 8443]); // WebhookActor.cpp:707

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));
}

/** td::parse_url with HTTPS as the default protocol: null when it cannot be read. */
export function parseWebhookUrl(text: string): URL | null {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The checks of Client::do_set_webhook (Client.cpp:16014-16024) and WebhookActor::start_up (WebhookActor.cpp:705-716),
 * whose errors setWebhook answers as "Bad Request: bad webhook: …" (Client.cpp:15961). The real server also refuses a
 * reserved address such as 127.0.0.1 ("IP address 127.0.0.1 is reserved"); this fake lets http:// and https:// to the
 * loopback through on any port instead, because tests run their webhook receiver locally.
 */
function checkWebhook(urlText: string, secretToken: string): void {
  const url = parseWebhookUrl(urlText);
  if (!url) throw new TelegramError(400, 'Bad Request: invalid webhook URL specified');
  if (secretToken.length > 256) throw new TelegramError(400, 'Bad Request: secret token is too long');
  if (!/^[A-Za-z0-9_-]*$/.test(secretToken)) throw new TelegramError(400, 'Bad Request: secret token contains unallowed characters');
  if (isLoopback(url.hostname)) return;
  if (url.protocol === 'http:') throw new TelegramError(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
  const port = url.port === '' ? 443 : Number(url.port);
  if (!WEBHOOK_PORTS.has(port)) throw new TelegramError(400, 'Bad Request: bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443');
}

/** setWebhook, and deleteWebhook (setWebhook without a URL), as Client::process_set_webhook_query orders them. */
export function setWebhook(call: MethodCall): MethodResult {
  const { bot, params, world, now } = call;
  const url = call.method.toLowerCase() === 'setwebhook' ? argText(params, 'url') : '';
  if (url !== '' && world.limits) {
    if (now < bot.lastSetWebhookAt + 1000) throw tooManyRequests(1); // Client.cpp:15732-15738
    bot.lastSetWebhookAt = now;
  }
  const hasCertificate = url !== '' && params.certificate instanceof UploadedFile;
  const maxConnections = url === '' ? 0 : argInt(params, 'max_connections', DEFAULT_MAX_CONNECTIONS, 1, 100);
  const secretToken = url === '' ? '' : argText(params, 'secret_token');
  const drop = argBool(params, 'drop_pending_updates');
  const current = bot.webhook;
  const unchanged = current
    ? current.url === url && current.maxConnections === maxConnections && current.secretToken === secretToken && !current.hasCertificate
    : url === '';
  if (unchanged && !hasCertificate && !drop) {
    updateAllowedUpdates(bot, params);
    return ok(true, url === '' ? 'Webhook is already deleted' : 'Webhook is already set'); // Client.cpp:15768-15769
  }
  if (url !== '') abortLongPoll(bot, TEXT.terminatedBySetWebhook);
  // The old webhook is closed before the new one is checked: a refused setWebhook leaves none (Client.cpp:15783-15795).
  const hadWebhook = current !== null;
  bot.webhook = null;
  bot.lastError = null;
  if (drop) bot.queue = []; // Client.cpp:16009-16011, before the URL is checked
  if (url === '') return ok(true, hadWebhook ? 'Webhook was deleted' : 'Webhook is already deleted'); // Client.cpp:16057-16058
  checkWebhook(url, secretToken);
  bot.webhook = { url, secretToken, maxConnections, hasCertificate };
  updateAllowedUpdates(bot, params);
  return ok(true, 'Webhook was set'); // Client.cpp:15877
}

/** JsonWebhookInfo (Client.cpp:5945-5980). */
export function getWebhookInfo({ bot }: MethodCall): MethodResult {
  const info: Record<string, unknown> = {
    url: bot.webhook?.url ?? '',
    has_custom_certificate: bot.webhook?.hasCertificate ?? false,
    pending_update_count: bot.queue.length,
  };
  if (bot.lastError) Object.assign(info, { last_error_date: bot.lastError.date, last_error_message: bot.lastError.message });
  if (bot.webhook) {
    const host = parseWebhookUrl(bot.webhook.url)?.hostname.replace(/^\[|\]$/g, '') ?? '';
    info.max_connections = bot.webhook.maxConnections;
    info.ip_address = isIP(host) ? host : host === 'localhost' ? '127.0.0.1' : '<unknown>';
  }
  if (bot.allowedUpdates) info.allowed_updates = bot.allowedUpdates;
  return ok(info);
}
