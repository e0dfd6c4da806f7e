import type { FastifyInstance } from 'fastify';
import { TopUpBody, WalletAdjustmentBody } from '../../../../shared/wallet.js';
import { parseInput } from '../../lib/parse.js';
import type { LimitRule } from '../../plugins/rate-limit.js';
import { actorOf } from '../users/users.service.js';
import type { WalletService } from './wallet.service.js';
import type { WalletRenewals } from './wallet-renewals.js';
import { AutoRenewBody } from '../../../../shared/accounts.js';

/**
 * The caller's own wallet, topping it up (a payment: it shares the checkout's per-user limit), and their accounts'
 * auto-renew from it.
 */
export async function walletRoutes(app: FastifyInstance, opts: { wallet: WalletService; renewals: WalletRenewals; checkoutLimit: LimitRule }) {
  app.addHook('preHandler', app.requireUser);
  const perUser = app.limiter('wallet-top-up-user', opts.checkoutLimit, (request) => request.auth!.user.id);
  app.get('/api/wallet', async (request) => opts.wallet.getWallet(request.auth!.user));
  app.post('/api/wallet/top-up', { preHandler: perUser }, async (request) => opts.wallet.startTopUp(request.auth!.user, parseInput(TopUpBody, request.body)));
  app.post<{ Params: { id: string } }>('/api/accounts/:id/auto-renew', async (request) =>
    opts.renewals.setAutoRenew(request.auth!.user, request.params.id, parseInput(AutoRenewBody, request.body).enabled));
}

/** A customer's wallet as the admin sees it, and the admin's audited adjustments. */
export async function adminWalletRoutes(app: FastifyInstance, opts: { wallet: WalletService }) {
  app.addHook('preHandler', app.requireAdmin);
  app.get<{ Params: { id: string } }>('/api/admin/users/:id/wallet', async (request) => opts.wallet.adminWallet(request.params.id));
  app.post<{ Params: { id: string } }>('/api/admin/users/:id/wallet', async (request) =>
    opts.wallet.adjust(actorOf(request), request.params.id, parseInput(WalletAdjustmentBody, request.body)));
}
