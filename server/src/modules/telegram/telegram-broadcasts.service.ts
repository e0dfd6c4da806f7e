import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isLocale, type Locale } from '../../../../shared/locales.js';
import type { CreateBroadcastBody, TelegramBroadcast } from '../../../../shared/telegram-broadcasts.js';
import { AppError, notFound } from '../../errors.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import { PermanentJobError, RetryJobLater, type JobHandler } from '../../jobs/worker.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepo } from '../audit/index.js';
import type { Actor } from '../users/index.js';
import type { TelegramApiFactory } from './telegram-api.js';
import type { BroadcastCandidate, TelegramBroadcastsRepo } from './telegram-broadcasts.repo.js';
import type { TelegramChatsRepo } from './telegram-chats.repo.js';
import type { Pace } from './telegram-pace.js';
import { sendUnasked, type UnaskedSend } from './telegram-send.js';
import type { TelegramSettingsService } from './telegram-settings.service.js';

/** Sends the next batch of a broadcast, then queues the batch after it. */
export const SEND_TELEGRAM_BROADCAST = 'send_telegram_broadcast';
/** Recipients one job sends to: a restart loses at most the one in flight, and the queue shows the progress. */
export const BROADCAST_BATCH = 100;
const BatchPayload = z.object({ broadcastId: z.string().min(1), batch: z.number().int().positive() });
/** A batch waits this long for the bot to be switched back on. */
const BOT_OFF_RETRY_SECONDS = 300;
/** A broadcast's batches may be put back by 429s many times over. */
const BATCH_MAX_ATTEMPTS = 1000;

export interface TelegramBroadcastsDeps {
  repo: TelegramBroadcastsRepo;
  chats: Pick<TelegramChatsRepo, 'markBlocked'>;
  jobs: JobsRepo;
  telegram: Pick<TelegramSettingsService, 'liveBot'>;
  api: TelegramApiFactory;
  pace: Pace;
  audit: AuditRepo;
  clock: Clock;
  /** The language the bot writes to a person in, from their Telegram app's `language_code` (bot-commands.ts). */
  localeOf(languageCode: string | undefined): Locale;
}

const botOff = () => new AppError(503, 'service_unavailable', 'Switch the Telegram bot on before sending a broadcast.');

/**
 * The admin's broadcasts: one message to everyone who started the bot, or to a segment of the customers (active,
 * expired, trial only; one language), fixed when it is made. Sent in batches through the job queue at Telegram's pace,
 * each recipient marked before and after the call to Telegram, so it goes on after a restart and nobody gets it twice.
 */
export function createTelegramBroadcasts(deps: TelegramBroadcastsDeps) {
  const languageOf = (candidate: BroadcastCandidate): Locale =>
    isLocale(candidate.locale) ? candidate.locale : deps.localeOf(candidate.languageCode ?? undefined);

  async function recipientsOf(body: Pick<CreateBroadcastBody, 'audience' | 'locale'>): Promise<number[]> {
    const candidates = await deps.repo.candidates(body.audience);
    return candidates.filter((candidate) => !body.locale || languageOf(candidate) === body.locale).map((candidate) => candidate.telegramId);
  }

  const batchJob = (broadcastId: string, batch: number) => ({
    type: SEND_TELEGRAM_BROADCAST,
    payload: { broadcastId, batch },
    dedupeKey: `${SEND_TELEGRAM_BROADCAST}:${broadcastId}:${batch}`,
    maxAttempts: BATCH_MAX_ATTEMPTS,
  });

  /** One recipient: claimed, sent, marked. A 429 gives the claim back (Telegram sent nothing) and puts the batch back. */
  async function sendTo(broadcastId: string, telegramId: number, text: string, token: string): Promise<void> {
    const now = () => deps.clock();
    if (!(await deps.repo.mark(broadcastId, telegramId, 'pending', 'sending', now()))) return;
    let sent: UnaskedSend;
    try {
      sent = await sendUnasked(deps, token, telegramId, text);
    } catch {
      // Refused for another reason, or no answer (it may have arrived): not tried again, so never sent twice.
      return void (await deps.repo.mark(broadcastId, telegramId, 'sending', 'failed', now()));
    }
    if (sent.outcome === 'slow_down') {
      // Telegram sent nothing: the claim goes back, and the batch waits as long as it says.
      await deps.repo.mark(broadcastId, telegramId, 'sending', 'pending', now());
      throw new RetryJobLater('Telegram asked to slow down', sent.retryAfter);
    }
    await deps.repo.mark(broadcastId, telegramId, 'sending', sent.outcome, now());
  }

  const handler: JobHandler = async (payload) => {
    const parsed = BatchPayload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad broadcast batch payload');
    const { broadcastId, batch } = parsed.data;
    const broadcast = await deps.repo.find(broadcastId);
    if (!broadcast || broadcast.status !== 'sending') return;
    const live = await deps.telegram.liveBot();
    if (!live) throw new RetryJobLater('the Telegram bot is off', BOT_OFF_RETRY_SECONDS);
    const recipients = await deps.repo.nextPending(broadcastId, BROADCAST_BATCH);
    for (const telegramId of recipients) {
      // Cancelled meanwhile (on any instance): whoever is left is not sent to.
      if ((await deps.repo.statusOf(broadcastId)) !== 'sending') return;
      await sendTo(broadcastId, telegramId, broadcast.text, live.token);
    }
    if (recipients.length < BROADCAST_BATCH) return void (await deps.repo.finish(broadcastId, 'done', deps.clock()));
    await deps.jobs.enqueue(batchJob(broadcastId, batch + 1), deps.clock());
  };

  return {
    handler,

    /** How many people a broadcast to this audience would reach now. */
    async preview(body: Pick<CreateBroadcastBody, 'audience' | 'locale'>): Promise<{ recipients: number }> {
      return { recipients: (await recipientsOf(body)).length };
    },

    async create(actor: Actor, body: CreateBroadcastBody & { locale: Locale | null }): Promise<TelegramBroadcast> {
      if (!(await deps.telegram.liveBot())) throw botOff();
      const id = randomUUID();
      const now = deps.clock();
      const recipients = await recipientsOf(body);
      await deps.repo.create({ id, text: body.text, audience: body.audience, locale: body.locale, createdBy: actor.id, recipients, now }, async (trx) => {
        if (recipients.length > 0) await deps.jobs.enqueue(batchJob(id, 1), now, trx);
        await deps.audit.record(
          {
            actorId: actor.id,
            actorEmail: actor.email,
            action: 'telegram.broadcast_created',
            targetType: 'telegram_broadcast',
            targetId: id,
            details: { audience: body.audience, locale: body.locale, recipients: recipients.length },
            ip: actor.ip ?? null,
            now,
          },
          trx,
        );
      });
      return (await deps.repo.find(id))!;
    },

    list: () => deps.repo.list(50),

    async cancel(actor: Actor, id: string): Promise<TelegramBroadcast> {
      const broadcast = await deps.repo.find(id);
      if (!broadcast) throw notFound('No such broadcast.');
      const now = deps.clock();
      if (!(await deps.repo.finish(id, 'cancelled', now)))
        throw new AppError(409, 'broadcast_finished', 'This broadcast has finished: there is nothing left to cancel.');
      await deps.audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'telegram.broadcast_cancelled',
        targetType: 'telegram_broadcast',
        targetId: id,
        ip: actor.ip ?? null,
        now,
      });
      return (await deps.repo.find(id))!;
    },
  };
}

export type TelegramBroadcasts = ReturnType<typeof createTelegramBroadcasts>;
