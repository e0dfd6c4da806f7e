import type { EmailCatalogue } from './en.js';

export const fa: EmailCatalogue = {
  'frame.sentTo': 'ارسال‌شده به {email}',
  'otp.subject': '{code} کد ورود شما به {brand} است',
  'otp.title': 'کد ورود به {brand}',
  'otp.lead': 'کد ورود شما به {brand}:',
  'otp.leadShort': 'کد ورود شما:',
  'otp.enterWithin': 'آن را ظرف {minutes, plural, other {# دقیقه}} در صفحهٔ ورود وارد کنید. این کد فقط یک بار کار می‌کند.',
  'otp.ignore': 'اگر درخواست ورود به {brand} را نداده‌اید، این ایمیل را نادیده بگیرید: هیچ‌کس بدون این کد نمی‌تواند وارد شود.',
};
