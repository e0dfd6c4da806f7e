import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { setProgramme } from '../../../test/referral-kit.js';
import { buttons, useTelegramFixture, type TelegramSender as Person } from '../../../test/telegram-kit.js';
import type { DesktopSession } from '../../../test/test-app.js';

const TOKEN = '7000041:AAFixtureBotTokenForStartPayloads12345';
const BOT = { id: 7000041, username: 'lumen_start_bot', first_name: 'Lumen VPN' };

describe.each(TEST_DATABASES)('opening the bot with an invitation, a gift or a promo code (%s)', (kind) => {
  const { f, say, tap } = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  let nextPerson = 9300;
  const newPerson = (language_code?: string): Person => ({ id: (nextPerson += 1), first_name: 'Ann', ...(language_code ? { language_code } : {}) });

  beforeAll(async () => {
    const saved = await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN });
    expect(saved.statusCode, saved.body).toBe(200);
    await setProgramme(f);
  });

  const linkByDashboard = async (customer: DesktopSession, person: Person) => {
    const url = (await f.call(customer, 'POST', '/api/me/telegram-link')).json().url as string;
    return say(person, `/start ${new URL(url).searchParams.get('start')}`);
  };
  const giftCodes = async (count: number) => {
    const made = await f.call(f.admin, 'POST', '/api/admin/gift-codes', { planId: f.paidPlanId, count });
    expect(made.statusCode, made.body).toBe(201);
    return made.json().codes as string[];
  };
  const chatOf = (person: Person) => f.env.database.db('telegram_chats').where({ telegram_id: person.id }).first();

  it('keeps a friend’s invitation until the person signs up in the bot, and credits the friend then', async () => {
    const referrer = await f.newUser();
    const { code } = (await f.call(referrer, 'GET', '/api/referrals/me')).json() as { code: string };
    const person = newPerson();
    const welcome = await say(person, `/start ref_${code}`);
    expect(welcome[0]!.text).toContain('A friend invited you');
    expect(buttons(welcome.at(-1)!).map((button) => button.callback_data)).toContain('link');
    expect((await chatOf(person)).start_payload).toBe(`ref_${code}`);

    const email = `invited-${kind}-${person.id}@example.com`;
    await tap(person, 'link');
    const mails = f.env.smtp.messages.length;
    await say(person, email);
    await f.env.smtp.waitFor(email, { after: mails });
    const done = await say(person, await f.env.smtp.latestCode(email));
    expect(done[0]!.text).toContain(email);
    const invited = await f.env.database.db('user_profiles').where({ email }).first();
    expect(await f.env.database.db('referrals').where({ referred_id: invited.id }).first()).toMatchObject({ referrer_id: referrer.userId, code });
    expect((await chatOf(person)).start_payload).toBeNull();
  });

  it('tells a customer already linked that invitations are for new customers, and credits nobody', async () => {
    const referrer = await f.newUser();
    const { code } = (await f.call(referrer, 'GET', '/api/referrals/me')).json() as { code: string };
    const customer = await f.newUser();
    const person = newPerson('ru');
    await linkByDashboard(customer, person);
    expect((await say(person, `/start ref_${code}`))[0]!.text).toBe('Приглашения — для новых клиентов: ваш аккаунт уже создан.');
    expect(await f.count('referrals', { referred_id: customer.userId })).toBe(0);
  });

  it('redeems a gift code for a linked customer at once, once; a used or unknown one is refused', async () => {
    const [code] = await giftCodes(1);
    const customer = await f.newUser();
    const person = newPerson();
    await linkByDashboard(customer, person);
    const redeemed = await say(person, `/start gift_${code}`);
    expect(redeemed[0]!.text).toMatch(/Your gift is redeemed: .+\. Your VPN is being set up/);
    await f.runJobs();
    expect(await f.count('vpn_accounts', { user_id: customer.userId, status: 'active' })).toBe(1);

    expect((await say(person, `/start gift_${code}`))[0]!.text).toBe('This gift code has already been redeemed.');
    expect((await say(person, '/start gift_NOSUCHCODE1'))[0]!.text).toBe('This gift code was not found. Check the link you received.');
    expect(await f.count('vpn_accounts', { user_id: customer.userId })).toBe(1);
  });

  it('asks someone not linked to link first, and redeems their gift once they are, naming its plan in their language', async () => {
    const translated = await f.call(f.admin, 'PATCH', `/api/admin/plans/${f.paidPlanId}`, { translations: { fa: { name: 'پلاس ماهانه' } } });
    expect(translated.statusCode, translated.body).toBe(200);
    const [code] = await giftCodes(1);
    const person = newPerson('fa');
    const asked = await say(person, `/start gift_${code}`);
    expect(buttons(asked[0]!).map((button) => button.callback_data)).toContain('link');
    expect(await f.count('gift_codes', { code, redeemed_by: null })).toBe(1);

    const customer = await f.newUser();
    const linked = await linkByDashboard(customer, person);
    expect(linked.some((sent) => sent.text?.includes('هدیه شما فعال شد') && sent.text.includes('پلاس ماهانه'))).toBe(true);
    expect((await chatOf(person)).start_payload).toBeNull();
    await f.runJobs();
    expect(await f.count('vpn_accounts', { user_id: customer.userId, status: 'active' })).toBe(1);
  });

  it('names a promo code for a linked customer, and takes nothing it cannot read', async () => {
    const customer = await f.newUser();
    const person = newPerson('zh-CN');
    await linkByDashboard(customer, person);
    const promo = await say(person, '/start promo_SPRING-25');
    expect(promo[0]!.text).toContain('SPRING-25');
    expect(buttons(promo[0]!).map((button) => button.callback_data)).toContain('plans');

    // Not a payload of ours (or not a code's shape): the menu, and nothing kept.
    const stranger = newPerson();
    const menu = await say(stranger, '/start ref_no!such');
    expect(menu[0]!.text).toContain('Welcome to');
    expect((await chatOf(stranger)).start_payload).toBeNull();
  });
});
