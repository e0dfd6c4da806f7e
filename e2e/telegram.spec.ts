import { expect, FAKE_TELEGRAM_BOT, signIn, signInAsNewAdmin, test, uniqueEmail } from './site.js';

test('the admin connects the Telegram bot on its tab, and a customer who writes /start gets the menu in their language', async ({ page, site }) => {
  await signIn(page, site, 'admin-telegram@example.com');
  await page.goto('/admin/telegram');
  const bot = page.getByRole('region', { name: 'Telegram bot' });
  await expect(bot.getByText('No bot yet')).toBeVisible();

  // A token Telegram does not know: refused, with Telegram's reason, and nothing saved.
  await bot.getByLabel('Bot token', { exact: true }).fill('7100002:AAnotherTokenTelegramDoesNotKnow0123456');
  await bot.getByLabel('The bot answers customers').check();
  await bot.getByRole('button', { name: 'Save the bot' }).click();
  await expect(bot.getByRole('alert')).toContainText('Telegram does not know this bot token');

  await bot.getByLabel('Bot token', { exact: true }).fill(FAKE_TELEGRAM_BOT.token);
  await bot.getByRole('button', { name: 'Save the bot' }).click();
  await expect(page.getByText('Telegram bot saved')).toBeVisible();
  await expect(bot.getByRole('link', { name: '@e2e_lumen_bot' })).toHaveAttribute('href', 'https://t.me/e2e_lumen_bot');
  await expect(bot.getByText(/Webhook \(Telegram posts them to this site\) · http:\/\/127\.0\.0\.1:\d+\/api\/telegram\/webhook/)).toBeVisible();
  // The token is write-only: the field is empty again, and the page never holds it.
  await expect(bot.getByLabel('Bot token', { exact: true })).toHaveValue('');
  expect(await page.content()).not.toContain(FAKE_TELEGRAM_BOT.token.split(':')[1]);

  // Telegram posts a Russian customer's /start to the site; the bot answers in Russian.
  const delivered = await site.telegram.deliver(FAKE_TELEGRAM_BOT.token, {
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id: 880001, type: 'private', first_name: 'Анна' },
      from: { id: 880001, is_bot: false, first_name: 'Анна', language_code: 'ru' },
      text: '/start',
      entities: [{ type: 'bot_command', offset: 0, length: 6 }],
    },
  });
  expect(delivered.status).toBe(200);
  const reply = site.telegram.sent.find((sent) => sent.chatId === 880001);
  expect(reply?.text).toContain('Добро пожаловать');

  // Switched off again, so the other tests' site has no bot.
  await bot.getByLabel('The bot answers customers').uncheck();
  await bot.getByRole('button', { name: 'Save the bot' }).click();
  await expect(bot.getByText('Off', { exact: true })).toBeVisible();
});

test('a customer connects their Telegram from the dashboard: the one-time link opens the bot, the dashboard notices, and they can disconnect', async ({
  page,
  site,
}) => {
  const actor = { id: null, email: 'e2e-operator@example.com' };
  await site.services.telegram.updateSettings(actor, { enabled: true, botToken: FAKE_TELEGRAM_BOT.token });
  try {
    await signIn(page, site, uniqueEmail('telegram-link'));
    await page.getByRole('button', { name: 'Connect Telegram' }).click();
    const dialog = page.getByRole('dialog', { name: 'Telegram' });
    const open = dialog.getByRole('link', { name: 'Open Telegram' });
    await expect(open).toHaveAttribute('href', /^https:\/\/t\.me\/e2e_lumen_bot\?start=link_[A-Za-z0-9_-]+$/);
    await expect(dialog.getByRole('img', { name: 'QR code of the link to the Telegram bot' })).toBeVisible();

    // The customer presses Start in Telegram: the bot links them and says so.
    const payload = new URL((await open.getAttribute('href'))!).searchParams.get('start')!;
    const delivered = await site.telegram.deliver(FAKE_TELEGRAM_BOT.token, {
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: 880002, type: 'private', first_name: 'Ann' },
        from: { id: 880002, is_bot: false, first_name: 'Ann', username: 'e2e_ann' },
        text: `/start ${payload}`,
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    });
    expect(delivered.status).toBe(200);
    expect(site.telegram.sent.find((sent) => sent.chatId === 880002)?.text).toContain('linked to your');

    // The open dialog notices without a reload.
    await expect(dialog.getByText('Your Telegram @e2e_ann is connected')).toBeVisible({ timeout: 10_000 });
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await expect(page.getByText('Telegram disconnected.')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Connect Telegram' })).toBeVisible();
  } finally {
    await site.services.telegram.updateSettings(actor, { enabled: false, botToken: null });
  }
});

test('the admin broadcasts a message to everyone who started the bot and watches it go out', async ({ page, site }) => {
  const actor = { id: null, email: 'e2e-operator@example.com' };
  await site.services.telegram.updateSettings(actor, { enabled: true, botToken: FAKE_TELEGRAM_BOT.token });
  try {
    const delivered = await site.telegram.deliver(FAKE_TELEGRAM_BOT.token, {
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: 880003, type: 'private', first_name: 'Bo' },
        from: { id: 880003, is_bot: false, first_name: 'Bo' },
        text: '/start',
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    });
    expect(delivered.status).toBe(200);
    const everyone = Number((await site.database.db('telegram_chats').whereNull('blocked_at').count({ n: '*' }).first())?.n);

    await signInAsNewAdmin(page, site, 'admin-broadcast');
    await page.goto('/admin/telegram');
    const section = page.getByRole('region', { name: 'Broadcasts' });
    await section.getByLabel('Message').fill('New servers in Tokyo this week');
    await expect(section.getByRole('status')).toHaveText(everyone === 1 ? 'Goes to 1 person' : `Goes to ${everyone} people`);
    await section.getByLabel('Who gets it').selectOption('expired');
    await expect(section.getByRole('status')).toHaveText('Nobody to send it to');
    await expect(section.getByRole('button', { name: 'Send the broadcast' })).toBeDisabled();
    await section.getByLabel('Who gets it').selectOption('all');
    await section.getByRole('button', { name: 'Send the broadcast' }).click();

    const list = section.getByRole('list', { name: 'Broadcasts sent' });
    await expect(list.getByText('New servers in Tokyo this week')).toBeVisible();
    await expect(list.getByText(`${everyone} of ${everyone} sent · 0 blocked the bot · 0 failed`)).toBeVisible({ timeout: 15_000 });
    expect(site.telegram.sent.some((sent) => sent.chatId === 880003 && sent.text === 'New servers in Tokyo this week')).toBe(true);
  } finally {
    await site.services.telegram.updateSettings(actor, { enabled: false, botToken: null });
  }
});
