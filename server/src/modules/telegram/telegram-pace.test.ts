import { describe, expect, it } from 'vitest';
import { createPace } from './telegram-pace.js';

/** A pace on a clock of our own: sleeping moves it, so turns are measured, not waited for. */
function pacedClock(options: { perSecond: number; perChatGapMs: number }) {
  let now = 0;
  const turns: Array<{ chat: number; at: number }> = [];
  const pace = createPace({ ...options, now: () => now, sleep: async (ms) => void (now += ms) });
  return {
    async send(chat: number) {
      await pace.turn(chat);
      turns.push({ chat, at: now });
    },
    turns,
  };
}

describe('the pace of Telegram sends', () => {
  it('keeps every second under the overall limit', async () => {
    const paced = pacedClock({ perSecond: 25, perChatGapMs: 1000 });
    for (let chat = 1; chat <= 100; chat += 1) await paced.send(chat);
    for (const turn of paced.turns) {
      const sameSecond = paced.turns.filter((other) => other.at >= turn.at && other.at < turn.at + 1000);
      expect(sameSecond.length).toBeLessThanOrEqual(25);
    }
    expect(paced.turns.at(-1)!.at).toBeGreaterThanOrEqual(3960);
  });

  it('sends to one chat at most once a second, without holding up the others', async () => {
    const paced = pacedClock({ perSecond: 25, perChatGapMs: 1000 });
    await paced.send(7);
    await paced.send(7);
    await paced.send(8);
    await paced.send(7);
    const sevens = paced.turns.filter((turn) => turn.chat === 7).map((turn) => turn.at);
    expect(sevens[1]! - sevens[0]!).toBeGreaterThanOrEqual(1000);
    expect(sevens[2]! - sevens[1]!).toBeGreaterThanOrEqual(1000);
    expect(paced.turns.find((turn) => turn.chat === 8)!.at).toBeLessThan(sevens[2]!);
  });
});
