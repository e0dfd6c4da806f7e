import type { FastifyInstance } from 'fastify';
import { TopUpBody, WalletAdjustmentBody } from '../../../../shared/wallet.js';
import type { LimitRule } from '../../plugins/rate-limit.js';
import { actorOf } from '../users/index.js';
import type { WalletService } from './wallet.service.js';
import type { WalletRenewals } from './wallet-renewals.js';
import { AutoRenewBody } from '../../../../shared/accounts.js';
import { IdParams, requireAccess, typed } from '../../lib/route-schemas.js';
import { VpnAccountAnswer } from '../../answers/accounts.js';
import { AdminWalletAnswer, TopUpStartedAnswer, WalletAnswer } from '../../answers/wallet.js';

/**
 * The caller's own wallet, topping it up (a payment: it shares the checkout's per-user limit), and their accounts'
 * auto-renew from it.
 */
export async function walletRoutes(app: FastifyInstance, opts: { wallet: WalletService; renewals: WalletRenewals; checkoutLimit: LimitRule }) {
  requireAccess(app, 'user');
  const perUser = app.limiter('wallet-top-up-user', opts.checkoutLimit, (request) => request.auth!.user.id);
  app.get('/api/wallet', { schema: { response: { 200: WalletAnswer } } }, async (request) => opts.wallet.getWallet(request.auth!.user));
  typed(app).post('/api/wallet/top-up', { preValidation: perUser, schema: { body: TopUpBody, response: { 200: TopUpStartedAnswer } } }, async (request) =>
    opts.wallet.startTopUp(request.auth!.user, request.body),
  );
  typed(app).post('/api/accounts/:id/auto-renew', { schema: { params: IdParams, body: AutoRenewBody, response: { 200: VpnAccountAnswer } } }, async (request) =>
    opts.renewals.setAutoRenew(request.auth!.user, request.params.id, request.body.enabled),
  );
}

/** A customer's wallet as the admin sees it, and the admin's audited adjustments. */
export async function adminWalletRoutes(app: FastifyInstance, opts: { wallet: WalletService }) {
  requireAccess(app, 'admin');
  const response = { 200: AdminWalletAnswer };
  app.get<{ Params: { id: string } }>('/api/admin/users/:id/wallet', { schema: { response } }, async (request) => opts.wallet.adminWallet(request.params.id));
  typed(app).post('/api/admin/users/:id/wallet', { schema: { params: IdParams, body: WalletAdjustmentBody, response } }, async (request) =>
    opts.wallet.adjust(actorOf(request), request.params.id, request.body),
  );
}
