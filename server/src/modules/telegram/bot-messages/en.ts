/** The bot's texts in English: the keys every other language has (ICU messages: placeholders and plurals). */
export const en = {
  'start.welcome': 'Welcome to {brand}! A fast, private VPN for your phone and computer. Choose what you need below.',
  'menu.plans': '💳 Plans and prices',
  'menu.site': '🌐 Open the website',
  'menu.language': '🗣 Language',
  'menu.support': '💬 Support',
  'menu.back': '« Menu',
  'language.choose': 'Choose the language I write to you in:',
  'language.saved': 'Done: I will write to you in English.',
  'support.text': 'Questions about your VPN or a payment? Write to {email}: we answer within a day.',
  'plans.title': 'Our plans. Choose one to see what it includes:',
  'plans.none': 'No plans are on sale right now. Please look again later.',
  'plan.price': '{price} for {duration}',
  'plan.renews': 'Renews automatically; cancel at any time.',
  'plan.dataGb': 'Data: {gb, number} GB',
  'plan.dataUnlimited': 'Unlimited data',
  'plan.devices': 'Up to {count, plural, one {# device} other {# devices}} at once',
  'plan.devicesUnlimited': 'Any number of devices',
  'plan.buy': 'Buy on the website',
  'plan.back': '« All plans',
  'plan.gone': 'This plan is no longer on sale.',
  'duration.days': '{count, plural, one {# day} other {# days}}',
  'duration.months': '{count, plural, one {# month} other {# months}}',
  'duration.years': '{count, plural, one {# year} other {# years}}',
  'command.start': 'Main menu',
  'command.plans': 'Plans and prices',
  'command.language': 'Change the language',
  'command.support': 'Contact support',
} as const;

export type BotMessageKey = keyof typeof en;
export type BotCatalogue = Readonly<Record<BotMessageKey, string>>;
