import type { EmailCatalogue } from './en.js';

export const ru: EmailCatalogue = {
  'frame.sentTo': 'отправлено на {email}',
  'otp.subject': '{code} — ваш код для входа в {brand}',
  'otp.title': 'Код для входа в {brand}',
  'otp.lead': 'Ваш код для входа в {brand}:',
  'otp.leadShort': 'Ваш код для входа:',
  'otp.enterWithin': 'Введите его на странице входа в течение {minutes, plural, one {# минуты} few {# минут} many {# минут} other {# минуты}}. Код действует один раз.',
  'otp.ignore': 'Если вы не пытались войти в {brand}, просто проигнорируйте это письмо: без кода никто не сможет войти.',
};
