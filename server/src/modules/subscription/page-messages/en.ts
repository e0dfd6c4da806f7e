/**
 * The `/sub/<token>` page's texts in English, as ICU messages. Every other language has exactly these
 * keys (checked by the type of each catalogue, and by a test). Dates, sizes and percentages arrive
 * already formatted for the reader's language; counts that choose a plural form arrive as numbers.
 */
export const en = {
  'page.title': 'Your subscription · {brand}',
  'page.heading': 'Your VPN subscription',
  'page.account': 'Account',
  'page.usage': 'Usage',
  'page.dataUsed': 'Data used',
  'page.usedOf': '{used} of {limit}',
  'page.unlimited': 'Unlimited',
  'page.meterLabel': '{percent} of the data used',
  'page.expires': 'Expires',
  'page.neverExpires': 'Never expires',
  'page.expiredOn': 'Expired on {date}',
  'page.expiresOn': '{date} ({left})',
  'page.daysLeft': '{days, plural, one {# day left} other {# days left}}',
  'page.hoursLeft': '{hours, plural, one {# hour left} other {# hours left}}',
  'page.lessThanAnHour': 'less than an hour left',
  'page.contactSupport': 'Contact support',
  'page.goToDashboard': 'Go to your dashboard',
  'page.setupTitle': 'Add it to your VPN app',
  'page.qrLabel': 'QR code of your subscription link',
  'page.setupHelp': "Scan the code with your phone's VPN app, tap a button below on the device you want to protect, or copy this link into your app:",
  'page.linkLabel': 'Subscription link',
  'page.openInYourApp': 'Open in your app',
  'page.openIn': 'Open in {app}',
  'page.dashboard': 'Dashboard',
  'page.support': 'Support',

  'status.active': 'Active',
  'status.on_hold': 'Ready: starts when you first connect',
  'status.pending': 'Being set up',
  'status.suspended': 'Awaiting payment',
  'status.disabled': 'Disabled',
  'status.expired': 'Expired',
  'status.limited': 'Data used up',
  'status.inactive': 'Inactive',

  'notice.expired': 'This subscription has expired. Renew it at {dashboard}.',
  'notice.limited': 'This subscription has used all of its data. Renew it or buy more at {dashboard}.',
  'notice.disabled': 'This subscription has been disabled. Contact support at {support}.',
  'notice.suspended': 'This subscription is waiting for its payment. Complete it at {dashboard}.',
  'notice.inactive': 'This subscription is not active. See {dashboard}.',
  'notice.pending': 'This subscription is still being set up. Please try again in a minute.',
  'notice.paidPending': 'Your payment is confirmed; your account is being set up. Please try again in a minute.',

  'open.title': 'Open in {app} · {brand}',
  'open.heading': 'Opening {app}…',
  'open.button': 'Open in {app}',
  'open.help': 'Nothing happened? Install {app}, then tap the button again, or copy this link into your VPN app:',
  'open.otherWays': 'Other apps and a QR code',
  'open.refusedTitle': 'This link cannot be opened here',
  'open.refused': 'Only subscription links of {brand} open here. Copy your link again from your dashboard.',
  'open.unknownApp': 'This is not an app we know how to open. Copy your link again from your dashboard.',

  'device.limitReached': 'Device limit reached ({count} of {limit}): remove a device at {dashboard}',
  'device.idRequired': 'This app does not send a device ID, which this subscription needs: use another VPN app (see {dashboard})',
} as const;

export type PageMessageKey = keyof typeof en;
export type PageCatalogue = Record<PageMessageKey, string>;
