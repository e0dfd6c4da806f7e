import { expect, FAKE_TELEGRAM_BOT, signIn, test, uniqueEmail } from './site.js';

const PERSON = { id: 880201, is_bot: false, first_name: 'Ann', username: 'e2e_ann_choices' };

test('a customer with Telegram linked chooses notices by Telegram only and codes there too, and the choices stay after a reload', async ({
  page,
  site,
  consoleErrors,
}) => {
  const actor = { id: null, email: 'e2e-operator@example.com' };
  await site.services.telegram.updateSettings(actor, { enabled: true, botToken: FAKE_TELEGRAM_BOT.token });
  try {
    const email = uniqueEmail('telegram-choices');
    await signIn(page, site, email);
    await page.getByRole('button', { name: 'Connect Telegram' }).click();
    const dialog = page.getByRole('dialog', { name: 'Telegram' });
    const open = dialog.getByRole('link', { name: 'Open Telegram' });
    await expect(open).toHaveAttribute('href', /start=link_/);
    const payload = new URL((await open.getAttribute('href'))!).searchParams.get('start')!;
    const delivered = await site.telegram.deliver(FAKE_TELEGRAM_BOT.token, {
      message: {
        message_id: 1,
        date: Math.floor(Date.now() / 1000),
        chat: { id: PERSON.id, type: 'private', first_name: PERSON.first_name },
        from: PERSON,
        text: `/start ${payload}`,
        entities: [{ type: 'bot_command', offset: 0, length: 6 }],
      },
    });
    expect(delivered.status).toBe(200);

    // Linked: the dialog offers the two choices, neither ticked.
    const noticesOnly = dialog.getByLabel('Send my notices by Telegram only (no e-mails)');
    const codesToo = dialog.getByLabel('Also send my sign-in codes to Telegram');
    await expect(noticesOnly).not.toBeChecked({ timeout: 10_000 });
    await expect(codesToo).not.toBeChecked();
    await noticesOnly.check();
    await expect(dialog.getByText('Saved.')).toBeVisible();
    await codesToo.check();
    await expect(dialog.getByText('Saved.')).toBeVisible();
    await expect(codesToo).toBeEnabled();

    const user = await site.database.db('user_profiles').where({ email }).first();
    const chat = await site.database.db('telegram_chats').where({ telegram_id: PERSON.id }).first();
    expect(chat).toMatchObject({ user_id: user.id, choices_user_id: user.id });

    // Kept: after a reload the dialog shows them ticked.
    await page.reload();
    await page.getByRole('button', { name: new RegExp(`^Telegram: .*${PERSON.username}`) }).click();
    await expect(dialog.getByLabel('Send my notices by Telegram only (no e-mails)')).toBeChecked();
    await expect(dialog.getByLabel('Also send my sign-in codes to Telegram')).toBeChecked();

    // Unticked again, and kept so.
    await dialog.getByLabel('Send my notices by Telegram only (no e-mails)').uncheck();
    await expect(dialog.getByText('Saved.')).toBeVisible();
    await page.reload();
    await page.getByRole('button', { name: new RegExp(`^Telegram: .*${PERSON.username}`) }).click();
    await expect(dialog.getByLabel('Send my notices by Telegram only (no e-mails)')).not.toBeChecked();
    await expect(dialog.getByLabel('Also send my sign-in codes to Telegram')).toBeChecked();
    expect(consoleErrors).toEqual([]);
  } finally {
    await site.services.telegram.updateSettings(actor, { enabled: false, botToken: null });
  }
});
