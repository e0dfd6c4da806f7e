import type { ErrorCatalogue } from './en.js';

/** The API's customer-facing error messages in Russian (keyed by the English; see ./en.ts). */
export const ru: ErrorCatalogue = {
  messages: {
    'Invalid code': 'Неверный код',
    'Failed to send the code': 'Не удалось отправить код',
    'Your session has ended. Please sign in again.': 'Ваш сеанс завершён. Войдите снова.',
    'Please sign in to continue.': 'Войдите, чтобы продолжить.',
    'You do not have permission to do that.': 'У вас нет прав на это действие.',
    'This request did not come from this site.': 'Этот запрос отправлен не с этого сайта.',
    'Some fields are not valid.': 'Некоторые поля заполнены неверно.',
    'Send a JSON object.': 'Отправьте объект JSON.',
    'Email is required': 'Укажите адрес электронной почты',
    'Email is too long': 'Адрес электронной почты слишком длинный',
    'Enter a valid email address': 'Введите корректный адрес электронной почты',
    'Code is required': 'Введите код',
    'Code must be 6 digits': 'Код должен состоять из 6 цифр',
    'planId is required': 'Не указан тариф (planId)',
    'The payment method is "card", "crypto", "yookassa", "cryptopay" or "wallet"': 'Способ оплаты — "card", "crypto", "yookassa", "cryptopay" или "wallet"',
    'Send planId to buy a plan, or accountId to renew an account': 'Укажите planId, чтобы купить тариф, или accountId, чтобы продлить аккаунт',
    'The language is one of en, ru, fa, zh-CN': 'Язык — один из: en, ru, fa, zh-CN',
    'The request body is too large.': 'Тело запроса слишком большое.',
    'Send the request body as JSON (Content-Type: application/json).': 'Отправьте тело запроса в формате JSON (Content-Type: application/json).',
    'The request body is empty; send a JSON object.': 'Тело запроса пустое; отправьте объект JSON.',
    'The request body is not valid JSON.': 'Тело запроса не является корректным JSON.',
    'The request body does not match its Content-Length.': 'Тело запроса не совпадает с его Content-Length.',
    'The request body nests deeper than 64 levels.': 'Тело запроса вложено глубже 64 уровней.',
    'An unexpected error occurred': 'Произошла непредвиденная ошибка',
    'Not found.': 'Не найдено.',
    'Trial Already Used': 'Пробный период уже использован',
    'Service is temporarily unavailable. Please try again later or contact support.':
      'Сервис временно недоступен. Попробуйте позже или обратитесь в поддержку.',
    'A subscription of yours still renews by itself. Turn off its auto-renew first, then delete your account.':
      'Одна из ваших подписок продлевается автоматически. Сначала отключите автопродление, затем удалите аккаунт.',
    'A payment or refund of yours is still in progress. Try again once it is finished (at most an hour).':
      'Ваш платёж или возврат ещё обрабатывается. Повторите попытку, когда он завершится (не более часа).',
    'Staff accounts are not deleted here: ask the store owner to remove your access first.':
      'Аккаунты сотрудников здесь не удаляются: сначала попросите владельца магазина снять ваш доступ.',
    'We could not remove your VPN account from its server, so your account was not deleted. Please try again later.':
      'Не удалось удалить ваш VPN-аккаунт с сервера, поэтому ваш аккаунт не удалён. Повторите попытку позже.',
    'Plan not found': 'Тариф не найден',
    'This plan is paid: buy it by card.': 'Это платный тариф: купите его картой.',
    'This trial has a price: start it with a payment from your dashboard.': 'У этого пробного периода есть цена: начните его с оплаты в личном кабинете.',
    'The payment for your trial is still open: finish it, or try again once it has closed (within an hour).':
      'Оплата вашего пробного периода ещё не завершена: завершите её или попробуйте снова, когда она закроется (в течение часа).',
    'Account not found': 'Аккаунт не найден',
    'Device not found': 'Устройство не найдено',
    'Account or master server not found': 'Аккаунт или сервер не найден',
    'This account is waiting for its payment and cannot be deleted yet.': 'Этот аккаунт ожидает оплаты и пока не может быть удалён.',
    'Failed to create VPN account': 'Не удалось создать VPN-аккаунт',
    'This plan is free: claim it from your dashboard instead.': 'Это бесплатный тариф: получите его в личном кабинете.',
    'This account is still waiting for its first payment.': 'Этот аккаунт ещё ожидает первой оплаты.',
    'This account renews automatically; there is nothing to pay now.': 'Этот аккаунт продлевается автоматически; сейчас платить ничего не нужно.',
    'This account is on that plan already.': 'Этот аккаунт уже на этом тарифе.',
    'This account cannot change plan: a trial becomes a paid plan when you buy one.':
      'Тариф этого аккаунта нельзя сменить: пробный период становится платным тарифом, когда вы его покупаете.',
    'This plan renews by itself with your card: turn off auto-renew first, then change plan when it ends.':
      'Этот тариф продлевается сам с вашей карты: сначала отключите автопродление, затем смените тариф, когда он закончится.',
    'A plan change for this account is waiting for its payment: finish or cancel it first.':
      'Смена тарифа для этого аккаунта ожидает оплаты: сначала завершите или отмените её.',
    'A payment for this account is disputed, so its plan cannot change now.': 'Платёж за этот аккаунт оспаривается, поэтому сейчас сменить тариф нельзя.',
    'This account was paid in another currency, so its unused time cannot be credited: renew it, or contact support.':
      'Этот аккаунт оплачен в другой валюте, поэтому неиспользованное время нельзя зачесть: продлите его или напишите в поддержку.',
    'No plan change is waiting for this account.': 'Для этого аккаунта нет ожидающей смены тарифа.',
    'This plan renews through Telegram Stars, which cannot change its price: turn off auto-renew in Telegram first, then change plan when it ends.':
      'Этот тариф продлевается через Telegram Stars, где нельзя изменить цену: сначала отключите автопродление в Telegram, затем смените тариф, когда он закончится.',
    'This account renews automatically: it can change only to another plan that renews automatically. Turn off auto-renew first to change to this one.':
      'Этот аккаунт продлевается автоматически: его можно перевести только на другой тариф с автопродлением. Чтобы перейти на этот, сначала отключите автопродление.',
    'This plan is not offered where your account is: buy it as a new account instead.':
      'Этот тариф недоступен там, где находится ваш аккаунт: купите его как новый аккаунт.',
    'Add-on not found': 'Дополнение не найдено',
    "This add-on is not sold for this account's plan.": 'Это дополнение не продаётся для тарифа этого аккаунта.',
    'This account has no paid time left to add to: renew it first.': 'У этого аккаунта не осталось оплаченного времени: сначала продлите его.',
    'This account has no limit of that kind to raise.': 'У этого аккаунта нет такого ограничения, которое можно увеличить.',
    'Choose an add-on': 'Выберите дополнение',
    'This account renews with your card subscription: it can change only to another plan that renews by card at the same interval, paid by that card.':
      'Этот аккаунт продлевается подпиской по карте: его можно перевести только на другой тариф, который продлевается картой с тем же интервалом и оплачивается той же картой.',
    'A renewal of this account has not been paid: update your card in the billing portal, then change plan.':
      'Продление этого аккаунта не оплачено: обновите карту в платёжном портале, затем смените тариф.',
    'Your card was declined, so the plan did not change. Update your card in the billing portal and try again.':
      'Ваша карта отклонена, поэтому тариф не изменился. Обновите карту в платёжном портале и попробуйте снова.',
    'Choose a plan': 'Выберите тариф',
    "This account's plan is no longer on sale, so it cannot be renewed. Buy a new plan instead.":
      'Тариф этого аккаунта больше не продаётся, поэтому его нельзя продлить. Купите новый тариф.',
    'Failed to create payment intent': 'Не удалось создать платёж',
    'Add your e-mail address first: this payment method sends its receipt there.':
      'Сначала укажите адрес электронной почты: этот способ оплаты отправляет на него чек.',
    'Another account already uses this e-mail address. Sign in with it instead.':
      'Этот адрес электронной почты уже используется другим аккаунтом. Войдите с ним.',
    'A renewal payment for this account is still open and could not be closed just now. Try again in a minute.':
      'Платёж за продление этого аккаунта ещё открыт, и закрыть его сейчас не удалось. Попробуйте через минуту.',
    'A renewal of this account has just been paid, so it was not deleted: its new period is being added. Delete it again if you still want to.':
      'Продление этого аккаунта только что оплачено, поэтому он не удалён: добавляется новый период. Если всё ещё хотите удалить аккаунт, удалите его снова.',
    'Payment session not found': 'Платёжная сессия не найдена',
    'Error checking payment status. Please refresh the page.': 'Не удалось проверить статус платежа. Обновите страницу.',
    'Payment provider not properly configured': 'Платёжная система настроена неправильно',
    'Stripe not initialized': 'Оплата картой сейчас недоступна',
    'Crypto payments not implemented yet': 'Оплата криптовалютой пока недоступна',
    'This payment method does not take the currency this store sells in. Choose another one.':
      'Этот способ оплаты не принимает валюту, в которой продаёт магазин. Выберите другой.',
    'Your balance does not cover this. Top it up, or pay another way.': 'Баланса не хватает. Пополните его или оплатите другим способом.',
    'The amount is outside the top-up limits.': 'Сумма вне допустимых пределов пополнения.',
    'Topping up the balance is not available right now.': 'Пополнение баланса сейчас недоступно.',
    'enabled is true or false': 'enabled — true или false',
    'Subscription not found': 'Подписка не найдена',
    'The payment provider could not be reached just now. Try again in a minute.': 'Платёжная система сейчас недоступна. Попробуйте через минуту.',
    'This plan does not renew automatically, so there is nothing to cancel: it ends with its period.':
      'Этот тариф не продлевается автоматически, поэтому отменять нечего: он закончится вместе со своим периодом.',
    'This subscription has already ended, so it cannot be changed.': 'Эта подписка уже закончилась, поэтому её нельзя изменить.',
    'There is no card on file yet: billing can be managed after your first recurring payment.':
      'Карта ещё не привязана: управлять оплатой можно после первого регулярного платежа.',
    'The billing portal could not be opened just now. Try again in a minute.': 'Не удалось открыть страницу управления оплатой. Попробуйте через минуту.',
    'There is no saved card to renew with. Renew by hand, or buy the plan again to save a card.':
      'Нет сохранённой карты для продления. Продлите тариф вручную или купите его снова, чтобы сохранить карту.',
    'Saved card not found.': 'Сохранённая карта не найдена.',
    'This subscription link does not exist. Copy it again from your dashboard.': 'Такой ссылки на подписку нет. Скопируйте её снова в личном кабинете.',
    'This subscription is still being set up. Please try again in a minute.': 'Подписка ещё настраивается. Попробуйте ещё раз через минуту.',
    'Your payment is confirmed; your account is being set up. Please try again in a minute.':
      'Оплата подтверждена, ваш аккаунт настраивается. Попробуйте ещё раз через минуту.',
    'This promo code does not exist.': 'Такого промокода нет.',
    'This promo code is not valid yet.': 'Этот промокод ещё не действует.',
    'This promo code has expired.': 'Срок действия этого промокода истёк.',
    'This promo code has been used up.': 'Этот промокод уже использован максимальное число раз.',
    'This promo code is not valid for this plan.': 'Этот промокод не действует для этого тарифа.',
    'You have already used this promo code.': 'Вы уже использовали этот промокод.',
    'This promo code would leave less to pay than the smallest amount that can be charged, so it cannot be used for this plan.':
      'С этим промокодом к оплате останется меньше минимальной суммы, которую можно списать, поэтому для этого тарифа он не действует.',
    'The price of this plan has just changed. Check it and try again.': 'Цена этого тарифа только что изменилась. Проверьте её и попробуйте снова.',
    'A code is 3 to 40 letters, digits, - or _': 'Код — от 3 до 40 букв, цифр, - или _',
    'Enter a code': 'Введите код',
    'This gift code does not exist.': 'Такого подарочного кода нет.',
    'This gift code has already been used.': 'Этот подарочный код уже использован.',
    'The plan of this gift code is no longer available. Please contact support.': 'Тариф этого подарочного кода больше недоступен. Обратитесь в поддержку.',
    'This gift is for another plan: redeem it as a new account instead.': 'Этот подарок для другого тарифа: активируйте его как новый аккаунт.',
    'Enter the gift code': 'Введите подарочный код',
    'Enter the gift code as you received it': 'Введите подарочный код так, как вы его получили',
  },
  timed: {
    rate_limited: 'Слишком много запросов. Попробуйте ещё раз через {seconds, plural, one {# секунду} few {# секунды} many {# секунд} other {# секунды}}.',
    otp_resend_wait: 'Подождите {seconds, plural, one {# секунду} few {# секунды} many {# секунд} other {# секунды}}, прежде чем запрашивать новый код.',
  },
};
