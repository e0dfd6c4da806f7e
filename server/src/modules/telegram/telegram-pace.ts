/**
 * Telegram's sending limits for one bot (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this):
 * about 30 messages a second in all, and no more than one a second to the same chat. Sends wait for their turn here;
 * a 429 Telegram still answers (other instances send too) puts the job back for the `retry_after` it names.
 */
export interface PaceOptions {
  /** Messages a second this process sends in all (kept under Telegram's 30). */
  perSecond: number;
  /** Milliseconds between two messages to one chat. */
  perChatGapMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export const TELEGRAM_PACE: PaceOptions = { perSecond: 25, perChatGapMs: 1000 };

export function createPace(options: PaceOptions) {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const interval = 1000 / options.perSecond;
  let nextSlot = 0;
  const chatNext = new Map<number, number>();

  return {
    /** Waits until a message to `chatId` may go, and takes that turn. */
    async turn(chatId: number): Promise<void> {
      const at = now();
      const slot = Math.max(at, nextSlot, chatNext.get(chatId) ?? 0);
      nextSlot = Math.max(nextSlot, slot) + interval;
      chatNext.set(chatId, slot + options.perChatGapMs);
      // Turns long past say nothing about the future: the map holds only chats written to lately.
      if (chatNext.size > 10_000) for (const [chat, next] of chatNext) if (next < at) chatNext.delete(chat);
      if (slot > at) await sleep(slot - at);
    },
  };
}

export type Pace = ReturnType<typeof createPace>;
