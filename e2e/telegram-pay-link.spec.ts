import { UpdateCardPaymentBody } from '../shared/billing-schemas.js';
import type { Plan } from '../shared/plans.js';
import { expect, FAKE_STRIPE_KEYS, FAKE_TELEGRAM_BOT, postJson, signInOverApi, test, uniqueEmail, type Site } from './site.js';

const PERSON = { id: 880101, is_bot: false, first_name: 'Анна', language_code: 'ru' };
const chat = { id: PERSON.id, type: 'private', first_name: PERSON.first_name };

/** What the bot sent the person last. */
const lastReply = (site: Site) => site.telegram.sent.filter((sent) => sent.chatId === PERSON.id).at(-1);

test('a payment link from the bot opens the site signed in as the customer, in their language, with the checkout for the plan', async ({
  page,
  site,
  consoleErrors,
}) => {
  const actor = { id: null, email: 'e2e-operator@example.com' };
  const cardWasOn = (await site.services.card.getPublicState()).ready;
  await site.services.telegram.updateSettings(actor, { enabled: true, botToken: FAKE_TELEGRAM_BOT.token });
  if (!cardWasOn) await site.services.card.updateSettings(UpdateCardPaymentBody.parse({ enabled: true, ...FAKE_STRIPE_KEYS }), new Date());
  try {
    // A customer links their Telegram with the dashboard's one-time link (over the API: the dashboard's part is telegram.spec.ts).
    const email = uniqueEmail('telegram-pay');
    const accessToken = await signInOverApi(site, email);
    const link = (await (await postJson(site, '/api/me/telegram-link', {}, accessToken)).json()) as { url: string };
    const start = new URL(link.url).searchParams.get('start')!;
    const date = Math.floor(Date.now() / 1000);
    const linked = await site.telegram.deliver(FAKE_TELEGRAM_BOT.token, {
      message: { message_id: 1, date, chat, from: PERSON, text: `/start ${start}`, entities: [{ type: 'bot_command', offset: 0, length: 6 }] },
    });
    expect(linked.status).toBe(200);

    // In the bot, a plan's "💳 Оплатить картой или другим способом": the answer carries a link to the Russian site (as text: the site is not https).
    const plans = (await (await fetch(`${site.baseURL}/api/plans`)).json()) as Plan[];
    const plan = plans.find((candidate) => candidate.public && !candidate.isTrial && candidate.price > 0)!;
    const pressed = await site.telegram.deliver(FAKE_TELEGRAM_BOT.token, {
      callback_query: {
        id: `pay-${date}`,
        from: PERSON,
        chat_instance: '1',
        data: `site-pay:plan:${plan.id}`,
        message: { message_id: 2, date, chat, text: 'plan' },
      },
    });
    expect(pressed.status).toBe(200);
    const payUrl = /http:\/\/127\.0\.0\.1:\d+\/ru\/pay\/[A-Za-z0-9_-]+/.exec(lastReply(site)?.text ?? '')?.[0];
    expect(payUrl, lastReply(site)?.text).toBeDefined();

    // Opened in a browser signed in as no one: signed in as that customer, on the dashboard, with that plan's checkout open.
    await page.goto(payUrl!);
    const planName = plan.translations.ru?.name ?? plan.name;
    const checkout = page.getByRole('dialog', { name: `Покупка: ${planName}` });
    await expect(checkout).toBeVisible({ timeout: 15_000 });
    await expect(page).toHaveURL(/\/ru\/dashboard$/);
    await expect(page.getByText(/^С возвращением, /)).toContainText(email);
    await expect(checkout.getByRole('button', { name: /картой/ })).toBeVisible();

    // The link works once: opened again, it says so and offers the e-mail sign-in.
    await page.context().clearCookies();
    await page.goto(payUrl!);
    await expect(page.getByRole('alert')).toHaveText(
      'Срок действия этой ссылки на оплату истёк, или она уже использована. Откройте бота снова, чтобы получить новую.',
    );
    await expect(page.getByRole('link', { name: 'Войти по e-mail' })).toHaveAttribute('href', '/ru/login');
    expect(consoleErrors.filter((error) => !error.includes('/api/auth/pay-link'))).toEqual([]);
  } finally {
    await site.services.telegram.updateSettings(actor, { enabled: false, botToken: null });
    if (!cardWasOn) await site.services.card.updateSettings(UpdateCardPaymentBody.parse({ enabled: false }), new Date());
  }
});
