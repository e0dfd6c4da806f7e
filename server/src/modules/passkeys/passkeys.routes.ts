import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RecoveryCodeBody, RegisterPasskeyBody, VerifyPasskeyBody } from '../../../../shared/passkeys.js';
import { IdParams, NoContent, requireAccess, typed } from '../../lib/route-schemas.js';
import {
  AuthenticationOptionsAnswer,
  MyPasskeysAnswer,
  PasskeyVerifiedAnswer,
  RegisteredPasskeyAnswer,
  RegistrationOptionsAnswer,
} from '../../answers/passkeys.js';
import type { PasskeyCaller, PasskeysService } from './passkeys.service.js';

/** Recovery codes tried per session: enough for typos, far too few to guess one. */
const RECOVERY_TRIES = { max: 10, windowSeconds: 15 * 60 };

type WithId = FastifyRequest<{ Params: { id: string } }>;

const callerOf = (request: FastifyRequest): PasskeyCaller => ({ user: request.auth!.user, sessionId: request.auth!.sessionId, ip: request.ip });

/** The caller's own passkeys: listed, added (the browser makes it) and deleted. Anyone signed in; staff are asked for one. */
export async function myPasskeysRoutes(app: FastifyInstance, opts: { passkeys: PasskeysService }) {
  requireAccess(app, 'user');
  app.get('/api/me/passkeys', { schema: { response: { 200: MyPasskeysAnswer } } }, async (request) => opts.passkeys.listMine(callerOf(request)));
  app.post('/api/me/passkeys/registration-options', { schema: { response: { 200: RegistrationOptionsAnswer } } }, async (request) =>
    opts.passkeys.registrationOptions(callerOf(request)),
  );
  typed(app).post('/api/me/passkeys', { schema: { body: RegisterPasskeyBody, response: { 201: RegisteredPasskeyAnswer } } }, async (request, reply) =>
    reply.status(201).send(await opts.passkeys.register(callerOf(request), request.body)),
  );
  app.delete('/api/me/passkeys/:id', { schema: { params: IdParams, response: { 204: NoContent } } }, async (request: WithId, reply) => {
    await opts.passkeys.remove(callerOf(request), request.params.id);
    return reply.status(204).send();
  });
}

/** The signed-in session proves a passkey (or spends a recovery code): the admin opens, and a step-up counts from now. */
export async function passkeyProofRoutes(app: FastifyInstance, opts: { passkeys: PasskeysService }) {
  requireAccess(app, 'user');
  const bySession = (request: FastifyRequest) => request.auth?.sessionId ?? request.ip;
  app.post('/api/auth/passkey/options', { schema: { response: { 200: AuthenticationOptionsAnswer } } }, async (request) =>
    opts.passkeys.authenticationOptions(callerOf(request)),
  );
  typed(app).post('/api/auth/passkey/verify', { schema: { body: VerifyPasskeyBody, response: { 200: PasskeyVerifiedAnswer } } }, async (request) =>
    opts.passkeys.verify(callerOf(request), request.body),
  );
  typed(app).post(
    '/api/auth/passkey/recovery',
    {
      preValidation: [app.limiter('passkey-recovery', RECOVERY_TRIES, bySession)],
      schema: { body: RecoveryCodeBody, response: { 200: PasskeyVerifiedAnswer } },
    },
    async (request) => opts.passkeys.useRecoveryCode(callerOf(request), request.body.code),
  );
}
