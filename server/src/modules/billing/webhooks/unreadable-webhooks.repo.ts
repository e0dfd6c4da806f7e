import type { UnreadableWebhookAlert } from '../../../../../shared/billing.js';
import type { Db } from '../../../db/knex.js';
import { toDate } from '../../../db/values.js';

/** An event a driver refused as unreadable (see UnreadableEventError). */
export interface UnreadableWebhook {
  provider: string;
  /** null: the event named no version. */
  apiVersion: string | null;
  eventId: string;
  eventType: string;
  reason: string;
}

const TABLE = 'unreadable_webhook_versions';

/** One row per provider and API version whose events could not be read: how often, and when last. */
export function createUnreadableWebhooksRepo(db: Db) {
  return {
    /** Counts one more refused event of its version (an upsert: events racing each other each count). */
    async record(event: UnreadableWebhook, now: Date): Promise<void> {
      const latest = { last_event_id: event.eventId, last_event_type: event.eventType, reason: event.reason, last_seen_at: now };
      await db(TABLE)
        .insert({ provider: event.provider, api_version: event.apiVersion ?? 'none', ...latest, times_seen: 1, first_seen_at: now })
        .onConflict(['provider', 'api_version'])
        .merge({ ...latest, times_seen: db.raw('?? + 1', [`${TABLE}.times_seen`]) });
    },

    /**
     * The provider's invoice or subscription events are read again (the endpoint's version was fixed, or the event
     * redelivered in one we read): the alerts seen until now are over. A version still failing comes back at its
     * next delivery.
     */
    async clearSeenUntil(provider: string, now: Date): Promise<void> {
      await db(TABLE).where({ provider }).where('last_seen_at', '<=', now).delete();
    },

    /** The versions seen since `since`, the latest first. */
    async listSeenSince(since: Date): Promise<UnreadableWebhookAlert[]> {
      const rows = await db(TABLE).where('last_seen_at', '>=', since).orderBy('last_seen_at', 'desc');
      return rows.map((row) => ({
        provider: row.provider,
        apiVersion: row.api_version,
        lastEventType: row.last_event_type,
        lastEventId: row.last_event_id,
        reason: row.reason,
        timesSeen: Number(row.times_seen),
        firstSeenAt: toDate(row.first_seen_at).toISOString(),
        lastSeenAt: toDate(row.last_seen_at).toISOString(),
      }));
    },
  };
}

export type UnreadableWebhooksRepo = ReturnType<typeof createUnreadableWebhooksRepo>;
