import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { PasskeyGate } from '../modules/passkeys/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * In a staff route's handler, before a change that moves money or power (payment keys, staff roles): 403
     * `step_up_required` unless the caller's session proved its passkey in the last 5 minutes. A staff member with no
     * passkey, while the owner does not require them, is not asked (there is nothing to ask for).
     */
    requireStepUp(request: FastifyRequest): Promise<void>;
    /** The same for a refund, only when it is over the store's `refundStepUpAbove` (or in another currency while that is set). */
    requireRefundStepUp(request: FastifyRequest, refund: { amount: number; currency: string }): Promise<void>;
  }
}

/**
 * Staff passkeys at the admin's door: on every admin route (`config.access === 'admin'`), a signed-in staff member whose
 * session has not proved their passkey gets 403 `passkey_required` (or `passkey_setup_required` when the owner requires
 * passkeys and they have none). It runs before the route's own access hook, so a stranger or a customer passes through
 * here untouched and that hook answers them (401, 403).
 */
export const staffPasskeyPlugin = fp(
  async (app: FastifyInstance, opts: { gate: PasskeyGate }) => {
    app.addHook('preValidation', async (request) => {
      if (request.routeOptions.config?.access !== 'admin') return;
      const auth = await app.loadAuth(request);
      if (auth) await opts.gate.checkAdminRequest(auth.user, auth.sessionId);
    });
    const signedIn = async (request: FastifyRequest) => {
      const auth = await app.loadAuth(request);
      if (!auth) throw new Error('requireStepUp needs a signed-in route');
      return auth;
    };
    app.decorate('requireStepUp', async (request: FastifyRequest) => {
      const auth = await signedIn(request);
      await opts.gate.requireStepUp(auth.user, auth.sessionId);
    });
    app.decorate('requireRefundStepUp', async (request: FastifyRequest, refund: { amount: number; currency: string }) => {
      const auth = await signedIn(request);
      await opts.gate.requireRefundStepUp(auth.user, auth.sessionId, refund);
    });
  },
  { name: 'staff-passkey', dependencies: ['auth'] },
);
