/**
 * One `GET /sub/<path>`: the account found by its token, a browser sent its page, a blocked account or a
 * refused device its message, and a VPN client its configuration (from memory, the database or the panel)
 * with our headers.
 */
import { AppError } from '../../errors.js';
import { anonymousDevice } from '../devices/index.js';
import { accountState, panelState } from './account-state.js';
import { cacheKey, knownPanelState } from './panel-copies.js';
import type { PanelCopy } from './subscription-content.js';
import type { SubscriptionContext } from './subscription-context.js';
import { SUBSCRIPTION_MESSAGES, SUBSCRIPTION_NOT_FOUND, type SubscriptionReply, type SubscriptionRequest } from './subscription-deps.js';
import { PANEL_SOURCE, formatForUserAgent, parseSubscriptionPath, wantsHtml, type SubscriptionFormat } from './subscription-format.js';
import { announceLocale, blockedReply, clientHeaders, deviceRefusal, page } from './subscription-replies.js';
import type { SubscriptionAccount } from './subscription.repo.js';

const MAX_FORWARDED_UA = 512;

const pendingMessage = (account: SubscriptionAccount) => (account.paid ? SUBSCRIPTION_MESSAGES.paidPending : SUBSCRIPTION_MESSAGES.pending);

/** Answers one `GET /sub/<path>`. Throws AppError 404 (unknown or malformed) and 503 (panel down, nothing cached; not provisioned yet). */
export async function handleSubscription(ctx: SubscriptionContext, request: SubscriptionRequest): Promise<SubscriptionReply> {
  const { devices, content, stored } = ctx;
  const parsed = parseSubscriptionPath(request.path);
  if (!parsed) throw SUBSCRIPTION_NOT_FOUND;
  const now = ctx.clock();
  const format: SubscriptionFormat = parsed.forced ?? formatForUserAgent(request.userAgent);
  const found = await ctx.accounts.find(parsed.token, PANEL_SOURCE[format], now.getTime());
  if (!found) throw SUBSCRIPTION_NOT_FOUND;
  const { account, kept } = found;
  const state = accountState(account, now);

  if (!parsed.forced && wantsHtml(request.accept)) {
    const known = state === 'active' || state === 'on_hold' ? knownPanelState(content, account, now) : null;
    return page(ctx, account, parsed.token, known ?? state, request, now);
  }
  if (state === 'pending') throw new AppError(503, 'service_unavailable', pendingMessage(account), { retryAfterSeconds: 60 });
  if (state !== 'active' && state !== 'on_hold') return blockedReply(ctx, account, state, null, request, now);

  let device = request.device ?? null;
  let windowMs = Infinity;
  if (!device && account.deviceLimit !== null) {
    // An app without a device id on a limited account: counted as a device by its app and address, if the operator says so.
    const current = await ctx.brand.get(now.getTime());
    if (current.devicelessClients === 'count') {
      device = anonymousDevice(request.userAgent, request.clientAddress);
      windowMs = current.devicelessWindowMs;
    }
  }
  if (device ? !devices.admittedNow(account.id, device, windowMs) : account.deviceLimit !== null) {
    const deviceless = device || account.deviceLimit === null ? 'allow' : (await ctx.brand.get(now.getTime())).devicelessClients;
    const admitted = await devices.check(account, device, deviceless, windowMs);
    if (!admitted.allowed) {
      if (admitted.reason === 'limit_reached') await ctx.deviceLimitReached(account.id, admitted.limit);
      return deviceRefusal(ctx, account, admitted, format, request, now);
    }
  }
  const source = PANEL_SOURCE[format];
  const userAgent = (request.userAgent ?? '').slice(0, MAX_FORWARDED_UA);
  const key = cacheKey(account, source);
  // Not in memory, and stored: the copy read with the row is served as it is (nothing more to wait for),
  // and kept when the account is.
  let copy = content.has(key) ? undefined : stored.fromRow(account, source, userAgent);
  if (copy) {
    if (kept) content.set(key, copy);
  } else {
    try {
      copy = (await content.get(key, () => stored.load(account, source, userAgent))).value;
    } catch {
      throw new AppError(503, 'service_unavailable', SUBSCRIPTION_MESSAGES.unavailable, { retryAfterSeconds: 30 });
    }
  }
  return configurationReply(ctx, account, copy, format, request, now);
}

/** The configuration a client gets from the copy, or why the panel says the account cannot be used. */
async function configurationReply(
  ctx: SubscriptionContext,
  account: SubscriptionAccount,
  copy: PanelCopy,
  format: SubscriptionFormat,
  request: SubscriptionRequest,
  now: Date,
): Promise<SubscriptionReply> {
  const fromPanel = panelState(copy, now);
  if (fromPanel) return blockedReply(ctx, account, fromPanel, copy.usage, request, now);
  const body = copy.bodies[format];
  if (!body) throw new AppError(503, 'service_unavailable', SUBSCRIPTION_MESSAGES.unavailable, { retryAfterSeconds: 30 });

  const current = await ctx.brand.get(now.getTime());
  const headers = clientHeaders(ctx, copy, account, current, format, await announceLocale(ctx, account, current, request, now.getTime()));
  // Asked on a domain of ours links are no longer issued on (it was blocked): apps that can move to the new one (Happ) are told where.
  if (request.host && request.host !== current.activeHost && current.ourHosts.has(request.host)) {
    return { statusCode: 200, headers: { ...headers, 'new-domain': current.activeHost, 'new-url': `${current.activeOrigin}/sub/${request.path}` }, body };
  }
  return { statusCode: 200, headers, body };
}
