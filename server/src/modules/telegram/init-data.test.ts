import { describe, expect, it } from 'vitest';
import { signMiniAppLaunch, tamperMiniAppLaunch } from '../../../test/fake-telegram/init-data.js';
import { checkInitData, INIT_DATA_CLOCK_SKEW_SECONDS, INIT_DATA_MAX_AGE_SECONDS } from './init-data.js';

const TOKEN = '7000001:AAFixtureBotTokenForTheStorefront12345';
const NOW = new Date('2026-05-01T12:00:00Z');
const nowSeconds = NOW.getTime() / 1000;
const ANN = { id: 424242, first_name: 'Ann & Co = "quoted"', username: 'ann_k', language_code: 'ru' };
const signed = (options: Parameters<typeof signMiniAppLaunch>[2] = {}) => signMiniAppLaunch(TOKEN, ANN, { authDate: nowSeconds - 30, ...options });

describe('checkInitData (a Mini App’s launch data)', () => {
  it('takes launch data Telegram signed for this bot, and names its user', () => {
    expect(checkInitData(signed(), TOKEN, NOW)).toEqual({
      ok: true,
      person: { id: 424242, first_name: 'Ann & Co = "quoted"', username: 'ann_k', language_code: 'ru' },
      signedAt: new Date((nowSeconds - 30) * 1000),
    });
  });

  it('takes a user without a username or language, and fields it does not know (they are signed too)', () => {
    const initData = signMiniAppLaunch(TOKEN, { id: 7, first_name: 'Bo' }, { authDate: nowSeconds, fields: { chat_type: 'private', start_param: 'x' } });
    expect(checkInitData(initData, TOKEN, NOW)).toMatchObject({ ok: true, person: { id: 7, first_name: 'Bo' } });
  });

  it('refuses data signed with another bot’s token, or a hash made up', () => {
    expect(checkInitData(signMiniAppLaunch('7000002:AAnotherBotTokenTelegramDoesNotKnow999', ANN, { authDate: nowSeconds }), TOKEN, NOW)).toEqual({
      ok: false,
      problem: 'forged',
    });
    expect(checkInitData(tamperMiniAppLaunch(signed(), 'hash', 'ab'.repeat(32)), TOKEN, NOW)).toEqual({ ok: false, problem: 'forged' });
  });

  it('refuses a field changed after signing: another user id, a later date, a field added', () => {
    const other = JSON.stringify({ ...ANN, id: 1 });
    expect(checkInitData(tamperMiniAppLaunch(signed(), 'user', other), TOKEN, NOW)).toEqual({ ok: false, problem: 'forged' });
    expect(checkInitData(tamperMiniAppLaunch(signed({ authDate: nowSeconds - 100_000 }), 'auth_date', String(nowSeconds)), TOKEN, NOW)).toEqual({
      ok: false,
      problem: 'forged',
    });
    expect(checkInitData(`${signed()}&start_param=admin`, TOKEN, NOW)).toEqual({ ok: false, problem: 'forged' });
  });

  it('refuses data without a hash, a hash that is not hex, or a field given twice', () => {
    const withoutHash = [...new URLSearchParams(signed())].filter(([key]) => key !== 'hash');
    expect(checkInitData(new URLSearchParams(withoutHash).toString(), TOKEN, NOW)).toEqual({ ok: false, problem: 'unreadable' });
    const hash = new URLSearchParams(signed()).get('hash')!;
    // Node's hex decoding stops at the first bad character: a valid hash with garbage after it is not a valid hash.
    expect(checkInitData(tamperMiniAppLaunch(signed(), 'hash', `${hash}zz`), TOKEN, NOW)).toEqual({ ok: false, problem: 'unreadable' });
    expect(checkInitData(`${signed()}&auth_date=1`, TOKEN, NOW)).toEqual({ ok: false, problem: 'unreadable' });
  });

  it('refuses data signed more than a day ago, and takes it a second before', () => {
    expect(checkInitData(signed({ authDate: nowSeconds - INIT_DATA_MAX_AGE_SECONDS - 1 }), TOKEN, NOW)).toEqual({ ok: false, problem: 'expired' });
    expect(checkInitData(signed({ authDate: nowSeconds - INIT_DATA_MAX_AGE_SECONDS }), TOKEN, NOW).ok).toBe(true);
  });

  it('refuses data dated more than a minute ahead of the server, and takes a clock a little ahead', () => {
    expect(checkInitData(signed({ authDate: nowSeconds + INIT_DATA_CLOCK_SKEW_SECONDS + 1 }), TOKEN, NOW)).toEqual({ ok: false, problem: 'ahead' });
    expect(checkInitData(signed({ authDate: nowSeconds + INIT_DATA_CLOCK_SKEW_SECONDS }), TOKEN, NOW).ok).toBe(true);
  });

  it('refuses signed data that names no user, a user that is not JSON, or a date that is not a number', () => {
    expect(checkInitData(signed({ fields: { user: 'not json' } }), TOKEN, NOW)).toEqual({ ok: false, problem: 'unreadable' });
    expect(checkInitData(signed({ fields: { user: JSON.stringify({ id: 'x', first_name: 'A' }) } }), TOKEN, NOW)).toEqual({
      ok: false,
      problem: 'unreadable',
    });
    expect(checkInitData(signed({ fields: { auth_date: 'yesterday' } }), TOKEN, NOW)).toEqual({ ok: false, problem: 'unreadable' });
    expect(checkInitData(signed({ fields: { user: undefined } }), TOKEN, NOW)).toEqual({ ok: false, problem: 'unreadable' });
  });

  it('refuses garbage without throwing', () => {
    for (const garbage of ['', 'hash', '%%%', '&&&=', 'hash=', 'user=%7B&hash=00', '\u0000'.repeat(10), 'a'.repeat(4096)]) {
      expect(checkInitData(garbage, TOKEN, NOW).ok, JSON.stringify(garbage.slice(0, 20))).toBe(false);
    }
  });
});
