import { describe, expect, it } from 'vitest';
import { VpnAccountAnswer } from '../answers/accounts.js';
import { VerifiedAnswer } from '../answers/auth.js';
import { answerWriter } from './answer-writer.js';

const me = { id: 'u1', email: 'a@example.com', role: 'user', trialUsed: false, locale: 'en' };
const account = {
  id: 'a1',
  username: 'u_1',
  status: 'active',
  expireDate: null,
  dataLimitBytes: null,
  usedTrafficBytes: 0,
  createdAt: '2026-12-06T00:00:00.000Z',
  combinedUrl: 'https://vpn.example.com/sub/t',
  subscriptionUrl: 'https://vpn.example.com/sub/t',
  links: [],
  server: null,
  planName: null,
  planId: null,
  renewable: false,
  usageStale: false,
  paymentConfirmed: true,
  usageCheckedAt: null,
  deviceLimit: null,
  autoRenewFromWallet: false,
  scheduledPlanChange: null,
};

describe('answerWriter: how production writes an answer', () => {
  it('writes the branch of a union the answer is: the desktop sign-in keeps its tokens, the web one has none', () => {
    const write = answerWriter(VerifiedAnswer, (err) => {
      throw err;
    });
    const tokens = { accessToken: 'a', refreshToken: 'r', expiresIn: 900 };
    expect(JSON.parse(write({ user: { ...me, secret: 1 }, ...tokens }))).toEqual({ user: me, ...tokens });
    expect(JSON.parse(write({ user: me }))).toEqual({ user: me });
  });

  it('writes nullable objects either way, and leaves out what is not declared', () => {
    const write = answerWriter(VpnAccountAnswer, (err) => {
      throw err;
    });
    expect(JSON.parse(write({ ...account, panelPassword: 'x' }))).toEqual(account);
    const server = { name: 'Frankfurt', locationNumber: null, locations: 'de', nameTranslations: { ru: 'Франкфурт' }, address: '10.0.0.1' };
    expect(JSON.parse(write({ ...account, server }))).toEqual({
      ...account,
      server: { name: 'Frankfurt', locationNumber: null, locations: 'de', nameTranslations: { ru: 'Франкфурт' } },
    });
  });

  it('an answer missing a required field is reported and sent with what it has of the declared fields', () => {
    const reported: unknown[] = [];
    const write = answerWriter(VpnAccountAnswer, (err) => reported.push(err));
    const { username: _, ...withoutUsername } = account;
    expect(JSON.parse(write({ ...withoutUsername, secret: 's' }))).toEqual(withoutUsername);
    expect(reported).toHaveLength(1);
  });
});
