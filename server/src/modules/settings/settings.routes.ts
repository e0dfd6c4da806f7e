import type { FastifyInstance } from 'fastify';
import { UpdateSettingsBody } from '../../../../shared/app-settings.js';
import type { Clock } from '../../lib/clock.js';
import { sendJsonAnswer } from '../../lib/json-answer.js';
import { changedFields, type AuditRepo } from '../audit/index.js';
import { actorOf } from '../users/index.js';
import type { SettingsService } from './settings.service.js';
import { requireAccess, typed } from '../../lib/route-schemas.js';
import { AdminSettingsAnswer, PublicConfigAnswer } from '../../answers/settings.js';

export async function publicConfigRoutes(app: FastifyInstance, opts: { settings: SettingsService }) {
  app.get('/api/config', { schema: { response: { 200: PublicConfigAnswer } } }, async (request, reply) =>
    sendJsonAnswer(request, reply, await opts.settings.getPublicConfigAnswer()),
  );
}

export async function adminSettingsRoutes(app: FastifyInstance, opts: { settings: SettingsService; audit: AuditRepo; clock: Clock }) {
  requireAccess(app, 'admin');
  app.get('/api/admin/settings', { schema: { response: { 200: AdminSettingsAnswer } } }, async () => opts.settings.getAdminSettings());
  typed(app).put('/api/admin/settings', { schema: { body: UpdateSettingsBody, response: { 200: AdminSettingsAnswer } } }, async (request) => {
    const patch = request.body;
    // Loosening the staff's passkey rules is itself a change of power: the passkey again (plugins/staff-passkey.ts).
    if (patch.staffPasskeysRequired !== undefined || patch.refundStepUpAbove !== undefined) await app.requireStepUp(request);
    const before = await opts.settings.getAdminSettings();
    const saved = await opts.settings.updateSettings(patch, opts.clock());
    const actor = actorOf(request);
    await opts.audit.record({
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'settings.update',
      targetType: 'settings',
      targetId: 'app_config',
      // What the change changed, as it was and as it is (secrets masked when written: modules/audit).
      details: changedFields(before, saved, Object.keys(patch)),
      ip: actor.ip ?? null,
      now: opts.clock(),
    });
    return saved;
  });
}
