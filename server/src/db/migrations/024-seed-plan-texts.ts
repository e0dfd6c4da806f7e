/**
 * The seeded plans' texts as migration 024 compares and writes them: a frozen copy of what
 * modules/plans/seed-plan-texts.ts held when the migration was written (a migration never reads live code, which
 * may change after it ran). Do not edit.
 */
export const SEED_PLAN_TEXTS_024: ReadonlyArray<{
  text: { name: string; tier: string; features: string[] };
  translations: Record<string, { name: string; tier: string; features: string[] }>;
}> = [
  {
    "text": {
      "name": "Complete 1 Month",
      "tier": "Complete",
      "features": [
        "1,000 GB of data every month",
        "Servers in every location",
        "Unlimited devices on one subscription link",
        "Open-source apps for Windows, macOS, Linux, Android and iOS",
        "Priority e-mail support"
      ]
    },
    "translations": {
      "ru": {
        "name": "Максимум 1 месяц",
        "tier": "Максимум",
        "features": [
          "1 000 ГБ трафика в месяц",
          "Серверы во всех локациях",
          "Сколько угодно устройств по одной ссылке подписки",
          "Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS",
          "Приоритетная поддержка по e-mail"
        ]
      },
      "fa": {
        "name": "کامل ۱ ماهه",
        "tier": "کامل",
        "features": [
          "۱٬۰۰۰ گیگابایت داده در ماه",
          "سرور در همهٔ موقعیت‌ها",
          "دستگاه‌های نامحدود با یک لینک اشتراک",
          "برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS",
          "پشتیبانی ایمیلی با اولویت"
        ]
      },
      "zh-CN": {
        "name": "旗舰版 1 个月",
        "tier": "旗舰版",
        "features": [
          "每月 1,000 GB 流量",
          "可使用所有地区的服务器",
          "一个订阅链接，设备数量不限",
          "适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用",
          "优先邮件支持"
        ]
      }
    }
  },
  {
    "text": {
      "name": "Complete 1 Year",
      "tier": "Complete",
      "features": [
        "12,000 GB of data for the year",
        "Servers in every location",
        "Unlimited devices on one subscription link",
        "Open-source apps for Windows, macOS, Linux, Android and iOS",
        "Priority e-mail support"
      ]
    },
    "translations": {
      "ru": {
        "name": "Максимум 1 год",
        "tier": "Максимум",
        "features": [
          "12 000 ГБ трафика на год",
          "Серверы во всех локациях",
          "Сколько угодно устройств по одной ссылке подписки",
          "Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS",
          "Приоритетная поддержка по e-mail"
        ]
      },
      "fa": {
        "name": "کامل ۱ ساله",
        "tier": "کامل",
        "features": [
          "۱۲٬۰۰۰ گیگابایت داده برای یک سال",
          "سرور در همهٔ موقعیت‌ها",
          "دستگاه‌های نامحدود با یک لینک اشتراک",
          "برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS",
          "پشتیبانی ایمیلی با اولویت"
        ]
      },
      "zh-CN": {
        "name": "旗舰版 1 年",
        "tier": "旗舰版",
        "features": [
          "全年共 12,000 GB 流量",
          "可使用所有地区的服务器",
          "一个订阅链接，设备数量不限",
          "适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用",
          "优先邮件支持"
        ]
      }
    }
  },
  {
    "text": {
      "name": "Complete 2 Years",
      "tier": "Complete",
      "features": [
        "24,000 GB of data for the 2 years",
        "Servers in every location",
        "Unlimited devices on one subscription link",
        "Open-source apps for Windows, macOS, Linux, Android and iOS",
        "Priority e-mail support"
      ]
    },
    "translations": {
      "ru": {
        "name": "Максимум 2 года",
        "tier": "Максимум",
        "features": [
          "24 000 ГБ трафика на 2 года",
          "Серверы во всех локациях",
          "Сколько угодно устройств по одной ссылке подписки",
          "Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS",
          "Приоритетная поддержка по e-mail"
        ]
      },
      "fa": {
        "name": "کامل ۲ ساله",
        "tier": "کامل",
        "features": [
          "۲۴٬۰۰۰ گیگابایت داده برای ۲ سال",
          "سرور در همهٔ موقعیت‌ها",
          "دستگاه‌های نامحدود با یک لینک اشتراک",
          "برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS",
          "پشتیبانی ایمیلی با اولویت"
        ]
      },
      "zh-CN": {
        "name": "旗舰版 2 年",
        "tier": "旗舰版",
        "features": [
          "两年共 24,000 GB 流量",
          "可使用所有地区的服务器",
          "一个订阅链接，设备数量不限",
          "适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用",
          "优先邮件支持"
        ]
      }
    }
  },
  {
    "text": {
      "name": "Plus 1 Month",
      "tier": "Plus",
      "features": [
        "300 GB of data every month",
        "Servers in every location",
        "Unlimited devices on one subscription link",
        "Open-source apps for Windows, macOS, Linux, Android and iOS",
        "Priority e-mail support"
      ]
    },
    "translations": {
      "ru": {
        "name": "Плюс 1 месяц",
        "tier": "Плюс",
        "features": [
          "300 ГБ трафика в месяц",
          "Серверы во всех локациях",
          "Сколько угодно устройств по одной ссылке подписки",
          "Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS",
          "Приоритетная поддержка по e-mail"
        ]
      },
      "fa": {
        "name": "پلاس ۱ ماهه",
        "tier": "پلاس",
        "features": [
          "۳۰۰ گیگابایت داده در ماه",
          "سرور در همهٔ موقعیت‌ها",
          "دستگاه‌های نامحدود با یک لینک اشتراک",
          "برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS",
          "پشتیبانی ایمیلی با اولویت"
        ]
      },
      "zh-CN": {
        "name": "高级版 1 个月",
        "tier": "高级版",
        "features": [
          "每月 300 GB 流量",
          "可使用所有地区的服务器",
          "一个订阅链接，设备数量不限",
          "适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用",
          "优先邮件支持"
        ]
      }
    }
  },
  {
    "text": {
      "name": "Plus 1 Year",
      "tier": "Plus",
      "features": [
        "3,600 GB of data for the year",
        "Servers in every location",
        "Unlimited devices on one subscription link",
        "Open-source apps for Windows, macOS, Linux, Android and iOS",
        "Priority e-mail support"
      ]
    },
    "translations": {
      "ru": {
        "name": "Плюс 1 год",
        "tier": "Плюс",
        "features": [
          "3 600 ГБ трафика на год",
          "Серверы во всех локациях",
          "Сколько угодно устройств по одной ссылке подписки",
          "Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS",
          "Приоритетная поддержка по e-mail"
        ]
      },
      "fa": {
        "name": "پلاس ۱ ساله",
        "tier": "پلاس",
        "features": [
          "۳٬۶۰۰ گیگابایت داده برای یک سال",
          "سرور در همهٔ موقعیت‌ها",
          "دستگاه‌های نامحدود با یک لینک اشتراک",
          "برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS",
          "پشتیبانی ایمیلی با اولویت"
        ]
      },
      "zh-CN": {
        "name": "高级版 1 年",
        "tier": "高级版",
        "features": [
          "全年共 3,600 GB 流量",
          "可使用所有地区的服务器",
          "一个订阅链接，设备数量不限",
          "适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用",
          "优先邮件支持"
        ]
      }
    }
  },
  {
    "text": {
      "name": "Plus 2 Years",
      "tier": "Plus",
      "features": [
        "7,200 GB of data for the 2 years",
        "Servers in every location",
        "Unlimited devices on one subscription link",
        "Open-source apps for Windows, macOS, Linux, Android and iOS",
        "Priority e-mail support"
      ]
    },
    "translations": {
      "ru": {
        "name": "Плюс 2 года",
        "tier": "Плюс",
        "features": [
          "7 200 ГБ трафика на 2 года",
          "Серверы во всех локациях",
          "Сколько угодно устройств по одной ссылке подписки",
          "Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS",
          "Приоритетная поддержка по e-mail"
        ]
      },
      "fa": {
        "name": "پلاس ۲ ساله",
        "tier": "پلاس",
        "features": [
          "۷٬۲۰۰ گیگابایت داده برای ۲ سال",
          "سرور در همهٔ موقعیت‌ها",
          "دستگاه‌های نامحدود با یک لینک اشتراک",
          "برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS",
          "پشتیبانی ایمیلی با اولویت"
        ]
      },
      "zh-CN": {
        "name": "高级版 2 年",
        "tier": "高级版",
        "features": [
          "两年共 7,200 GB 流量",
          "可使用所有地区的服务器",
          "一个订阅链接，设备数量不限",
          "适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用",
          "优先邮件支持"
        ]
      }
    }
  },
  {
    "text": {
      "name": "Basic 1 Month",
      "tier": "Basic",
      "features": [
        "100 GB of data every month",
        "Servers in every location",
        "Unlimited devices on one subscription link",
        "Open-source apps for Windows, macOS, Linux, Android and iOS",
        "E-mail support"
      ]
    },
    "translations": {
      "ru": {
        "name": "Базовый 1 месяц",
        "tier": "Базовый",
        "features": [
          "100 ГБ трафика в месяц",
          "Серверы во всех локациях",
          "Сколько угодно устройств по одной ссылке подписки",
          "Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS",
          "Поддержка по e-mail"
        ]
      },
      "fa": {
        "name": "پایه ۱ ماهه",
        "tier": "پایه",
        "features": [
          "۱۰۰ گیگابایت داده در ماه",
          "سرور در همهٔ موقعیت‌ها",
          "دستگاه‌های نامحدود با یک لینک اشتراک",
          "برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS",
          "پشتیبانی ایمیلی"
        ]
      },
      "zh-CN": {
        "name": "基础版 1 个月",
        "tier": "基础版",
        "features": [
          "每月 100 GB 流量",
          "可使用所有地区的服务器",
          "一个订阅链接，设备数量不限",
          "适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用",
          "邮件支持"
        ]
      }
    }
  },
  {
    "text": {
      "name": "Basic 1 Year",
      "tier": "Basic",
      "features": [
        "1,200 GB of data for the year",
        "Servers in every location",
        "Unlimited devices on one subscription link",
        "Open-source apps for Windows, macOS, Linux, Android and iOS",
        "E-mail support"
      ]
    },
    "translations": {
      "ru": {
        "name": "Базовый 1 год",
        "tier": "Базовый",
        "features": [
          "1 200 ГБ трафика на год",
          "Серверы во всех локациях",
          "Сколько угодно устройств по одной ссылке подписки",
          "Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS",
          "Поддержка по e-mail"
        ]
      },
      "fa": {
        "name": "پایه ۱ ساله",
        "tier": "پایه",
        "features": [
          "۱٬۲۰۰ گیگابایت داده برای یک سال",
          "سرور در همهٔ موقعیت‌ها",
          "دستگاه‌های نامحدود با یک لینک اشتراک",
          "برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS",
          "پشتیبانی ایمیلی"
        ]
      },
      "zh-CN": {
        "name": "基础版 1 年",
        "tier": "基础版",
        "features": [
          "全年共 1,200 GB 流量",
          "可使用所有地区的服务器",
          "一个订阅链接，设备数量不限",
          "适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用",
          "邮件支持"
        ]
      }
    }
  },
  {
    "text": {
      "name": "Basic 2 Years",
      "tier": "Basic",
      "features": [
        "2,400 GB of data for the 2 years",
        "Servers in every location",
        "Unlimited devices on one subscription link",
        "Open-source apps for Windows, macOS, Linux, Android and iOS",
        "E-mail support"
      ]
    },
    "translations": {
      "ru": {
        "name": "Базовый 2 года",
        "tier": "Базовый",
        "features": [
          "2 400 ГБ трафика на 2 года",
          "Серверы во всех локациях",
          "Сколько угодно устройств по одной ссылке подписки",
          "Приложения с открытым кодом для Windows, macOS, Linux, Android и iOS",
          "Поддержка по e-mail"
        ]
      },
      "fa": {
        "name": "پایه ۲ ساله",
        "tier": "پایه",
        "features": [
          "۲٬۴۰۰ گیگابایت داده برای ۲ سال",
          "سرور در همهٔ موقعیت‌ها",
          "دستگاه‌های نامحدود با یک لینک اشتراک",
          "برنامه‌های متن‌باز برای Windows، macOS، Linux، Android و iOS",
          "پشتیبانی ایمیلی"
        ]
      },
      "zh-CN": {
        "name": "基础版 2 年",
        "tier": "基础版",
        "features": [
          "两年共 2,400 GB 流量",
          "可使用所有地区的服务器",
          "一个订阅链接，设备数量不限",
          "适用于 Windows、macOS、Linux、Android 和 iOS 的开源应用",
          "邮件支持"
        ]
      }
    }
  }
];
