import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../users/index.js';
import type { DevicesService } from './devices.service.js';
import { NoContent, requireAccess } from '../../lib/route-schemas.js';
import { AccountDevicesAnswer } from '../../answers/devices.js';

type WithAccount = FastifyRequest<{ Params: { id: string } }>;
type WithDevice = FastifyRequest<{ Params: { id: string; deviceId: string } }>;

/** The signed-in customer's own accounts' devices: someone else's account or device is a 404. */
export async function accountDevicesRoutes(app: FastifyInstance, opts: { devices: DevicesService }) {
  requireAccess(app, 'user');
  const owner = (request: FastifyRequest) => ({ kind: 'owner' as const, userId: request.auth!.user.id, ip: request.ip ?? null });

  app.get('/api/accounts/:id/devices', { schema: { response: { 200: AccountDevicesAnswer } } }, async (request: WithAccount) =>
    opts.devices.listDevices(owner(request), request.params.id),
  );
  app.delete('/api/accounts/:id/devices/:deviceId', { schema: { response: { 204: NoContent } } }, async (request: WithDevice, reply) => {
    await opts.devices.removeDevice(owner(request), request.params.id, request.params.deviceId);
    return reply.status(204).send();
  });
}

/** Any account's devices, from the admin's user page; a removal is audited. */
export async function adminAccountDevicesRoutes(app: FastifyInstance, opts: { devices: DevicesService }) {
  requireAccess(app, 'admin');
  const admin = (request: FastifyRequest) => ({ kind: 'admin' as const, actor: actorOf(request) });

  app.get('/api/admin/accounts/:id/devices', { schema: { response: { 200: AccountDevicesAnswer } } }, async (request: WithAccount) =>
    opts.devices.listDevices(admin(request), request.params.id),
  );
  app.delete('/api/admin/accounts/:id/devices/:deviceId', { schema: { response: { 204: NoContent } } }, async (request: WithDevice, reply) => {
    await opts.devices.removeDevice(admin(request), request.params.id, request.params.deviceId);
    return reply.status(204).send();
  });
}
