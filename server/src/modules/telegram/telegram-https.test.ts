import { describe, expect, it } from 'vitest';
import { buttons, useTelegramFixture } from '../../../test/telegram-kit.js';

const TOKEN = '7000041:AAFixtureBotTokenForAnHttpsStorefront01';
const BOT = { id: 7000041, username: 'lumen_https_bot', first_name: 'Lumen VPN' };
const PAY_TOKEN = '7000042:AAFixtureBotTokenForHttpsPaymentLinks01';
const PAY_BOT = { id: 7000042, username: 'lumen_https_pay_bot', first_name: 'Lumen VPN' };

/**
 * On an https site (where Telegram opens Mini Apps), the bot's menu button and its menu open the dashboard inside
 * Telegram. On SQLite only: what is checked is what the bot asks of Telegram, which no database changes (the same
 * settings and chat rows run on PostgreSQL in telegram.test.ts).
 */
describe('the Mini App from the bot, on an https site', () => {
  const { f, telegram, say } = useTelegramFixture('sqlite', { token: TOKEN, info: BOT, env: { PUBLIC_URL: 'https://vpn.example.com' } });

  it('sets the chat menu button to the dashboard, and /start offers it as a web_app button with links to the site', async () => {
    expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN })).statusCode).toBe(200);
    const [menuButton] = telegram().callsTo('setChatMenuButton');
    expect(menuButton!.params.menu_button).toEqual({ type: 'web_app', text: 'VPN', web_app: { url: 'https://vpn.example.com/dashboard' } });

    const [menu] = await say({ id: 901, language_code: 'ru' }, '/start');
    const keyboard = buttons(menu!) as Array<{ text: string; web_app?: { url: string }; url?: string }>;
    expect(keyboard.find((button) => button.web_app)).toEqual({ text: '📱 Открыть личный кабинет', web_app: { url: 'https://vpn.example.com/ru/dashboard' } });
    expect(keyboard.find((button) => button.url)?.url).toBe('https://vpn.example.com/ru/');
  });
});

describe('a payment link from the bot, on an https site', () => {
  const { f, say, tap } = useTelegramFixture('sqlite', {
    token: PAY_TOKEN,
    info: PAY_BOT,
    env: { PUBLIC_URL: 'https://vpn.example.com' },
  });

  it('comes as a button that opens the checkout page in the customer’s language', async () => {
    expect((await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: PAY_TOKEN })).statusCode).toBe(200);
    const customer = await f.newUser();
    const person = { id: 902, language_code: 'ru' };
    const url = (await f.call(customer, 'POST', '/api/me/telegram-link')).json().url as string;
    await say(person, `/start ${new URL(url).searchParams.get('start')}`);

    const [answer] = await tap(person, `site-pay:plan:${f.paidPlanId}`);
    expect(answer!.text).not.toContain('https://');
    const open = buttons(answer!).find((button) => button.url);
    expect(open).toEqual({ text: '💳 Перейти к оплате', url: expect.stringMatching(/^https:\/\/vpn\.example\.com\/ru\/pay\/[A-Za-z0-9_-]{32}$/) });
    expect(buttons(answer!).map((button) => button.callback_data)).toContain('plans');
  });
});
