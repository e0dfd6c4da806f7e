import type { ErrorCatalogue } from './en.js';

/** The API's customer-facing error messages in Persian (keyed by the English; see ./en.ts). */
export const fa: ErrorCatalogue = {
  messages: {
    'Invalid code': 'کد نامعتبر است',
    'Failed to send the code': 'ارسال کد ناموفق بود',
    'Your session has ended. Please sign in again.': 'نشست شما به پایان رسیده است. لطفاً دوباره وارد شوید.',
    'Please sign in to continue.': 'برای ادامه لطفاً وارد شوید.',
    'You do not have permission to do that.': 'شما اجازهٔ انجام این کار را ندارید.',
    'This request did not come from this site.': 'این درخواست از این وب‌سایت ارسال نشده است.',
    'Some fields are not valid.': 'برخی از فیلدها معتبر نیستند.',
    'Send a JSON object.': 'یک شیء JSON ارسال کنید.',
    'Email is required': 'ایمیل الزامی است',
    'Email is too long': 'ایمیل بیش از حد طولانی است',
    'Enter a valid email address': 'یک نشانی ایمیل معتبر وارد کنید',
    'Code is required': 'کد الزامی است',
    'Code must be 6 digits': 'کد باید ۶ رقم باشد',
    'planId is required': 'شناسهٔ طرح (planId) الزامی است',
    'The payment method is "card", "crypto", "yookassa", "cryptopay" or "wallet"':
      'روش پرداخت باید یکی از "card"، "crypto"، "yookassa"، "cryptopay" یا "wallet" باشد',
    'Send planId to buy a plan, or accountId to renew an account': 'برای خرید طرح planId و برای تمدید حساب accountId را ارسال کنید',
    'The language is one of en, ru, fa, zh-CN': 'زبان باید یکی از en، ru، fa یا zh-CN باشد',
    'The request body is too large.': 'بدنهٔ درخواست بیش از حد بزرگ است.',
    'Send the request body as JSON (Content-Type: application/json).': 'بدنهٔ درخواست را به‌صورت JSON ارسال کنید (Content-Type: application/json).',
    'The request body is empty; send a JSON object.': 'بدنهٔ درخواست خالی است؛ یک شیء JSON ارسال کنید.',
    'The request body is not valid JSON.': 'بدنهٔ درخواست JSON معتبری نیست.',
    'The request body does not match its Content-Length.': 'بدنهٔ درخواست با Content-Length آن مطابقت ندارد.',
    'The request body nests deeper than 64 levels.': 'بدنهٔ درخواست بیش از ۶۴ سطح تودرتو است.',
    'An unexpected error occurred': 'خطای غیرمنتظره‌ای رخ داد',
    'Not found.': 'پیدا نشد.',
    'Trial Already Used': 'دورهٔ آزمایشی قبلاً استفاده شده است',
    'Service is temporarily unavailable. Please try again later or contact support.':
      'سرویس موقتاً در دسترس نیست. لطفاً بعداً دوباره امتحان کنید یا با پشتیبانی تماس بگیرید.',
    'A subscription of yours still renews by itself. Turn off its auto-renew first, then delete your account.':
      'یکی از اشتراک‌های شما هنوز خودکار تمدید می‌شود. ابتدا تمدید خودکار آن را خاموش کنید، سپس حساب خود را حذف کنید.',
    'A payment or refund of yours is still in progress. Try again once it is finished (at most an hour).':
      'یکی از پرداخت‌ها یا بازپرداخت‌های شما هنوز در جریان است. پس از پایان آن دوباره تلاش کنید (حداکثر یک ساعت).',
    'Staff accounts are not deleted here: ask the store owner to remove your access first.':
      'حساب‌های کارکنان از اینجا حذف نمی‌شوند: ابتدا از مالک فروشگاه بخواهید دسترسی شما را بردارد.',
    'We could not remove your VPN account from its server, so your account was not deleted. Please try again later.':
      'نتوانستیم حساب VPN شما را از سرورش حذف کنیم، بنابراین حساب کاربری شما حذف نشد. لطفاً بعداً دوباره تلاش کنید.',
    'Plan not found': 'طرح پیدا نشد',
    'This plan is paid: buy it by card.': 'این طرح پولی است: آن را با کارت بخرید.',
    'This trial has a price: start it with a payment from your dashboard.': 'این دورهٔ آزمایشی قیمت دارد: آن را با پرداخت از داشبورد خود شروع کنید.',
    'The payment for your trial is still open: finish it, or try again once it has closed (within an hour).':
      'پرداخت دورهٔ آزمایشی شما هنوز باز است: آن را تمام کنید، یا پس از بسته شدنش (حداکثر تا یک ساعت) دوباره امتحان کنید.',
    'Account not found': 'حساب پیدا نشد',
    'Device not found': 'دستگاه پیدا نشد',
    'Account or master server not found': 'حساب یا سرور پیدا نشد',
    'This account is waiting for its payment and cannot be deleted yet.': 'این حساب در انتظار پرداخت است و هنوز نمی‌توان آن را حذف کرد.',
    'Failed to create VPN account': 'ساخت حساب VPN ناموفق بود',
    'This plan is free: claim it from your dashboard instead.': 'این طرح رایگان است: آن را از داشبورد خود دریافت کنید.',
    'This account is still waiting for its first payment.': 'این حساب هنوز در انتظار اولین پرداخت است.',
    'This account renews automatically; there is nothing to pay now.': 'این حساب به‌طور خودکار تمدید می‌شود؛ اکنون چیزی برای پرداخت نیست.',
    'This account is on that plan already.': 'این حساب هم‌اکنون روی همین طرح است.',
    'This account cannot change plan: a trial becomes a paid plan when you buy one.':
      'طرح این حساب را نمی‌توان تغییر داد: دورهٔ آزمایشی با خرید یک طرح به طرح پولی تبدیل می‌شود.',
    'This plan renews by itself with your card: turn off auto-renew first, then change plan when it ends.':
      'این طرح با کارت شما خودکار تمدید می‌شود: ابتدا تمدید خودکار را خاموش کنید و پس از پایان آن طرح را تغییر دهید.',
    'A plan change for this account is waiting for its payment: finish or cancel it first.':
      'تغییر طرح این حساب در انتظار پرداخت است: ابتدا آن را تکمیل یا لغو کنید.',
    'A payment for this account is disputed, so its plan cannot change now.':
      'یکی از پرداخت‌های این حساب مورد اعتراض است، پس اکنون نمی‌توان طرح آن را تغییر داد.',
    'This account was paid in another currency, so its unused time cannot be credited: renew it, or contact support.':
      'این حساب با ارز دیگری پرداخت شده است، پس زمان استفاده‌نشدهٔ آن قابل محاسبه نیست: آن را تمدید کنید یا با پشتیبانی تماس بگیرید.',
    'No plan change is waiting for this account.': 'هیچ تغییر طرحی برای این حساب در انتظار نیست.',
    'This plan renews through Telegram Stars, which cannot change its price: turn off auto-renew in Telegram first, then change plan when it ends.':
      'این طرح با Telegram Stars تمدید می‌شود که نمی‌تواند قیمتش را تغییر دهد: ابتدا تمدید خودکار را در تلگرام خاموش کنید و پس از پایان آن طرح را تغییر دهید.',
    'This account renews automatically: it can change only to another plan that renews automatically. Turn off auto-renew first to change to this one.':
      'این حساب خودکار تمدید می‌شود: فقط می‌تواند به طرح دیگری با تمدید خودکار تغییر کند. برای تغییر به این طرح، ابتدا تمدید خودکار را خاموش کنید.',
    'This plan is not offered where your account is: buy it as a new account instead.':
      'این طرح در جایی که حساب شما قرار دارد ارائه نمی‌شود: آن را به‌عنوان یک حساب جدید بخرید.',
    'Add-on not found': 'افزونه پیدا نشد',
    "This add-on is not sold for this account's plan.": 'این افزونه برای طرح این حساب فروخته نمی‌شود.',
    'This account has no paid time left to add to: renew it first.': 'این حساب زمان پرداخت‌شدهٔ باقی‌مانده ندارد: ابتدا آن را تمدید کنید.',
    'This account has no limit of that kind to raise.': 'این حساب محدودیتی از این نوع برای افزایش ندارد.',
    'Choose an add-on': 'یک افزونه انتخاب کنید',
    'This account renews with your card subscription: it can change only to another plan that renews by card at the same interval, paid by that card.':
      'این حساب با اشتراک کارت شما تمدید می‌شود: فقط می‌توان آن را به طرح دیگری تغییر داد که با همان فاصلهٔ زمانی با کارت تمدید می‌شود و با همان کارت پرداخت می‌شود.',
    'A renewal of this account has not been paid: update your card in the billing portal, then change plan.':
      'تمدید این حساب پرداخت نشده است: کارت خود را در درگاه صورت‌حساب به‌روز کنید و سپس طرح را تغییر دهید.',
    'Your card was declined, so the plan did not change. Update your card in the billing portal and try again.':
      'کارت شما رد شد، بنابراین طرح تغییر نکرد. کارت خود را در درگاه صورت‌حساب به‌روز کنید و دوباره تلاش کنید.',
    'Choose a plan': 'یک طرح انتخاب کنید',
    "This account's plan is no longer on sale, so it cannot be renewed. Buy a new plan instead.":
      'طرح این حساب دیگر فروخته نمی‌شود، بنابراین قابل تمدید نیست. به‌جای آن یک طرح جدید بخرید.',
    'Failed to create payment intent': 'ایجاد پرداخت ناموفق بود',
    'Add your e-mail address first: this payment method sends its receipt there.': 'ابتدا نشانی ایمیل خود را وارد کنید: این روش پرداخت رسید را به آن می‌فرستد.',
    'Another account already uses this e-mail address. Sign in with it instead.': 'این نشانی ایمیل را حساب دیگری استفاده می‌کند. با همان وارد شوید.',
    'A renewal payment for this account is still open and could not be closed just now. Try again in a minute.':
      'یک پرداخت تمدید برای این حساب هنوز باز است و اکنون بسته نشد. یک دقیقهٔ دیگر دوباره امتحان کنید.',
    'A renewal of this account has just been paid, so it was not deleted: its new period is being added. Delete it again if you still want to.':
      'تمدید این حساب همین حالا پرداخت شد، بنابراین حذف نشد: دورهٔ جدید آن در حال افزوده شدن است. اگر هنوز می‌خواهید، دوباره آن را حذف کنید.',
    'Payment session not found': 'جلسهٔ پرداخت پیدا نشد',
    'Error checking payment status. Please refresh the page.': 'خطا در بررسی وضعیت پرداخت. لطفاً صفحه را دوباره بارگذاری کنید.',
    'Payment provider not properly configured': 'درگاه پرداخت به‌درستی پیکربندی نشده است',
    'Stripe not initialized': 'پرداخت با کارت اکنون در دسترس نیست',
    'Crypto payments not implemented yet': 'پرداخت با رمزارز هنوز در دسترس نیست',
    'This payment method does not take the currency this store sells in. Choose another one.':
      'این روش پرداخت ارزی را که این فروشگاه با آن می‌فروشد نمی‌پذیرد. روش دیگری را انتخاب کنید.',
    'Your balance does not cover this. Top it up, or pay another way.': 'موجودی شما کافی نیست. آن را شارژ کنید یا به روش دیگری پرداخت کنید.',
    'The amount is outside the top-up limits.': 'مبلغ خارج از محدودهٔ مجاز شارژ است.',
    'Topping up the balance is not available right now.': 'شارژ موجودی در حال حاضر امکان‌پذیر نیست.',
    'enabled is true or false': 'enabled باید true یا false باشد',
    'Subscription not found': 'اشتراک پیدا نشد',
    'The payment provider could not be reached just now. Try again in a minute.': 'اکنون دسترسی به درگاه پرداخت ممکن نیست. یک دقیقهٔ دیگر دوباره امتحان کنید.',
    'This plan does not renew automatically, so there is nothing to cancel: it ends with its period.':
      'این طرح به‌طور خودکار تمدید نمی‌شود، بنابراین چیزی برای لغو نیست: با پایان دوره‌اش تمام می‌شود.',
    'This subscription has already ended, so it cannot be changed.': 'این اشتراک قبلاً به پایان رسیده است، بنابراین قابل تغییر نیست.',
    'There is no card on file yet: billing can be managed after your first recurring payment.':
      'هنوز کارتی ثبت نشده است: مدیریت پرداخت پس از اولین پرداخت دوره‌ای شما ممکن است.',
    'The billing portal could not be opened just now. Try again in a minute.': 'اکنون صفحهٔ مدیریت پرداخت باز نشد. یک دقیقهٔ دیگر دوباره امتحان کنید.',
    'There is no saved card to renew with. Renew by hand, or buy the plan again to save a card.':
      'کارت ذخیره‌شده‌ای برای تمدید وجود ندارد. به‌صورت دستی تمدید کنید یا طرح را دوباره بخرید تا کارتی ذخیره شود.',
    'Saved card not found.': 'کارت ذخیره‌شده پیدا نشد.',
    'This subscription link does not exist. Copy it again from your dashboard.': 'این پیوند اشتراک وجود ندارد. آن را دوباره از داشبورد خود کپی کنید.',
    'This subscription is still being set up. Please try again in a minute.': 'این اشتراک هنوز در حال راه‌اندازی است. لطفاً یک دقیقهٔ دیگر دوباره امتحان کنید.',
    'Your payment is confirmed; your account is being set up. Please try again in a minute.':
      'پرداخت شما تأیید شد؛ حساب شما در حال راه‌اندازی است. لطفاً یک دقیقهٔ دیگر دوباره امتحان کنید.',
    'This promo code does not exist.': 'این کد تخفیف وجود ندارد.',
    'This promo code is not valid yet.': 'این کد تخفیف هنوز فعال نشده است.',
    'This promo code has expired.': 'مهلت این کد تخفیف تمام شده است.',
    'This promo code has been used up.': 'ظرفیت استفاده از این کد تخفیف تمام شده است.',
    'This promo code is not valid for this plan.': 'این کد تخفیف برای این طرح معتبر نیست.',
    'You have already used this promo code.': 'شما قبلاً از این کد تخفیف استفاده کرده\u200cاید.',
    'This promo code would leave less to pay than the smallest amount that can be charged, so it cannot be used for this plan.':
      'با این کد تخفیف مبلغ باقی\u200cمانده کمتر از کمترین مبلغ قابل پرداخت می\u200cشود، بنابراین برای این طرح قابل استفاده نیست.',
    'The price of this plan has just changed. Check it and try again.': 'قیمت این طرح همین حالا تغییر کرد. آن را بررسی کنید و دوباره تلاش کنید.',
    'A code is 3 to 40 letters, digits, - or _': 'کد از ۳ تا ۴۰ حرف، رقم، - یا _ تشکیل می\u200cشود',
    'Enter a code': 'کد را وارد کنید',
    'This gift code does not exist.': 'این کد هدیه وجود ندارد.',
    'This gift code has already been used.': 'از این کد هدیه قبلاً استفاده شده است.',
    'The plan of this gift code is no longer available. Please contact support.': 'طرح این کد هدیه دیگر در دسترس نیست. لطفاً با پشتیبانی تماس بگیرید.',
    'This gift is for another plan: redeem it as a new account instead.': 'این هدیه برای طرح دیگری است: آن را به\u200cصورت حساب جدید فعال کنید.',
    'Enter the gift code': 'کد هدیه را وارد کنید',
    'Enter the gift code as you received it': 'کد هدیه را همان\u200cطور که دریافت کرده\u200cاید وارد کنید',
  },
  timed: {
    rate_limited: 'درخواست‌ها بیش از حد زیاد است. لطفاً {seconds, plural, other {# ثانیهٔ}} دیگر دوباره امتحان کنید.',
    otp_resend_wait: 'لطفاً پیش از درخواست کد جدید {seconds, plural, other {# ثانیه}} صبر کنید.',
  },
};
