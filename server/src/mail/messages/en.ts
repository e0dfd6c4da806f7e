/**
 * The e-mails' texts in English, as ICU messages (plurals and placeholders). Every other language has
 * exactly these keys (checked by the type of each catalogue, and by a test).
 *
 * Values are filled in already formatted for the reader's language (amounts, days, sizes, percentages);
 * only counts that choose a plural form are passed as numbers.
 */
export const en = {
  'frame.sentTo': 'sent to {email}',
  'otp.subject': '{code} is your {brand} sign-in code',
  'otp.title': '{brand} sign-in code',
  'otp.lead': 'Your {brand} sign-in code is:',
  'otp.leadShort': 'Your sign-in code is:',
  'otp.enterWithin': 'Enter it on the sign-in page within {minutes, plural, one {# minute} other {# minutes}}. It works once.',
  'otp.ignore': 'If you did not ask to sign in to {brand}, ignore this e-mail: nobody can sign in without the code.',

  'billing.yourPlan': 'your plan',
  'billing.button.dashboard': 'Open your dashboard',
  'billing.button.renew': 'Renew on your dashboard',
  'billing.button.updateCard': 'Update your card',

  'billing.receipt.subject': '{brand}: receipt for your payment',
  'billing.receipt.lead': 'Thank you: we received your payment of {amount} for {plan}.',
  'billing.receipt.factAmount': 'Amount',
  'billing.receipt.factPromo': 'Promo code',
  'billing.receipt.promoValue': '{code}: {discount} off {price}',
  'billing.receipt.factCredit': 'Paid from balance',
  'billing.receipt.creditValue': '{credit} of your credit used',
  'billing.receipt.factPlan': 'Plan',
  'billing.receipt.factPaidOn': 'Paid on',
  'billing.receipt.factReceiptNumber': 'Receipt number',
  'billing.receipt.extendedUntil': 'Your VPN account has been extended until {day}.',
  'billing.receipt.extended': 'Your VPN account has been extended.',
  'billing.receipt.activeUntil': 'Your VPN account is active until {day}.',
  'billing.receipt.changedUntil': 'Your VPN account is on {plan} now, until {day}: the same link, with the new plan’s limits.',
  'billing.receipt.trialBecame': 'Your trial is now {plan}, until {day}: the same account and link, nothing to set up again.',
  'billing.receipt.factChangeCredit': 'Credit for the plan before',
  'billing.receipt.changeCreditValue': '{credit} for {days, plural, one {# unused day} other {# unused days}}',
  'billing.receipt.bonusDays': "It includes {days, plural, one {# extra day} other {# extra days}} from your friend's referral.",
  'billing.receipt.active': 'Your VPN account is active.',
  'billing.receipt.oneOff': 'This was a one-off payment: nothing will be charged again automatically.',
  'billing.receipt.cancelAnyTime': 'You can cancel auto-renew any time from your dashboard.',
  'billing.receipt.nextCharge': 'Next charge: {amount} on {day}. You can cancel auto-renew any time from your dashboard.',

  'billing.renewal.subject': '{brand}: your subscription renews on {day}',
  'billing.renewal.lead': 'Your {plan} subscription renews on {day}.',
  'billing.renewal.charge': 'The card on file will be charged {amount} on {day}.',
  'billing.renewal.howToStop': 'To stop it, cancel auto-renew on your dashboard before then.',
  'billing.renewal.changeCard': 'To use a different card, choose "Manage billing" on your dashboard.',
  'billing.renewal.changeCardHere': 'To pay another way, remove the saved card on your dashboard and renew by hand when the time comes.',

  'billing.planEnding.subject': '{brand}: your plan ends {days, plural, =0 {today} =1 {tomorrow} other {in # days}} — renew',
  'billing.planEnding.subjectEnded': '{brand}: your plan has ended — renew',
  'billing.planEnding.leadEnds': 'Your VPN account {account} on {plan} ends on {day}.',
  'billing.planEnding.leadEnded': 'Your VPN account {account} on {plan} ended on {day}.',
  'billing.planEnding.renew': 'This plan does not renew by itself: renew it from your dashboard to keep it running.',
  'billing.planEnding.renewEnded': 'Renew it from your dashboard to switch it on again.',

  'billing.dataUsage.subject': '{brand}: you have used {percent} of your data',
  'billing.dataUsage.subjectAll': '{brand}: you have used all your data',
  'billing.dataUsage.lead': 'Your VPN account {account} has used {percent} of its {limit} of data.',
  'billing.dataUsage.leadAll': 'Your VPN account {account} has used all of its {limit} of data, so it no longer connects.',
  'billing.dataUsage.renew': 'Renew or buy a plan with more data from your dashboard to keep connecting.',
  'billing.dataUsage.renewUntil':
    'Renew or buy a plan with more data from your dashboard to keep connecting. It resets when you renew; the plan runs until {day}.',

  'billing.deviceLimit.subject': '{brand}: a new device could not connect',
  'billing.deviceLimit.lead':
    'A new device tried to connect to your VPN {account}, but it already uses {limit, plural, one {# of its # device} other {# of its # devices}}.',
  'billing.deviceLimit.remove': 'Remove a device you no longer use in your dashboard, or choose a plan with more devices.',

  'billing.paymentFailed.subject': '{brand}: your payment did not go through',
  'billing.paymentFailed.lead': 'The renewal charge of {amount} for {plan} did not go through.',
  'billing.paymentFailed.graceUntil': 'Your VPN keeps working until {day}.',
  'billing.paymentFailed.updateCard': 'Update your card before then to keep it running.',
  'billing.paymentFailed.retry': 'We will try the card again automatically on {day}.',
  'billing.paymentFailed.lastTry': 'That was the last try: your plan will not renew by itself.',
  'billing.paymentFailed.renewByHand': 'To keep it running, renew it on your dashboard with any payment method.',

  'billing.paused.subject': '{brand}: your VPN account is paused',
  'billing.paused.lead': 'The renewal of {amount} for {plan} could not be charged, so your VPN account has been paused.',
  'billing.paused.howToResume': 'Update your card: as soon as the payment goes through, the account is switched on again and extended.',

  'billing.partialPayment.subject': '{brand}: your crypto payment was not completed',
  'billing.partialPayment.lead': 'Your crypto invoice for {plan} expired before it was paid in full: we received {paid} of {amount}.',
  'billing.partialPayment.nothingDelivered': 'Because the payment is not complete, nothing has been set up or extended.',
  'billing.partialPayment.refund': 'We will refund the {paid} you sent. You will get an e-mail with a link where you give an address for it.',
  'billing.partialPayment.payAgain': 'To get the plan, start a new payment from your dashboard.',

  'billing.resumed.subject': '{brand}: auto-renew is back on',
  'billing.resumed.lead': 'Auto-renew is back on for your {plan} subscription.',
  'billing.resumed.nextCharge': 'Your VPN account keeps running: the card on file will be charged {amount} on {day}.',
  'billing.resumed.charges': 'Your VPN account keeps running and renews automatically with the card on file.',
  'billing.resumed.howToStop': 'To stop it again, cancel auto-renew on your dashboard before the next charge.',
  'billing.canceled.subject': '{brand}: your subscription was cancelled',
  'billing.canceled.byAdmin': '{brand} has cancelled your {plan} subscription.',
  'billing.canceled.byYou': 'Your {plan} subscription has been cancelled.',
  'billing.canceled.noMoreCharges': 'Auto-renew is off: there will be no further charges.',
  'billing.canceled.activeUntil': 'Your VPN account stays active until {day}.',
  'billing.canceled.ended': 'Your VPN account has ended.',
  'billing.canceled.contactSupport': 'If you did not expect this, contact {brand} support.',
  'billing.canceled.resume': 'If you did this by mistake, press Resume on your dashboard before then.',

  'refund.subjectFull': '{brand}: your payment was refunded',
  'refund.subjectPartial': '{brand}: part of your payment was refunded',
  'refund.title': '{brand}: refund',
  'refund.headlineFull': 'Your payment of {paid} for {plan} has been refunded.',
  'refund.headlinePartial': '{refunded} of your payment of {paid} for {plan} has been refunded.',
  'refund.effectFull': 'The period this payment bought has been taken off your VPN account; if nothing else is paid for it, the account is paused.',
  'refund.effectPartial': 'Your VPN account is not affected.',
  'refund.effectSubscriptionEnded': 'Your auto-renewing subscription has ended with this refund: nothing more will be charged.',
  'refund.effectPartialRecurring': 'Your VPN account and its auto-renewal are not affected.',
  'refund.timingCrypto': 'Your payment was in crypto: claim the refund on the page below by entering the address of a wallet you control.',
  'refund.timingCard': 'Refunds usually reach your card within 5 to 10 business days, depending on your bank.',
  'refund.timingStars': 'The Stars are back in the Telegram account that paid them already.',
  'refund.claimButton': 'Claim your refund',
  'refund.claimLine': 'Claim your refund: {url}',
  'refund.dashboardLine': 'Your accounts and payment history: {url}',

  'health.subjectDown': '{brand}: server {server} is down',
  'health.subjectUp': '{brand}: server {server} is back up',
  'health.titleDown': '{brand}: server down',
  'health.titleUp': '{brand}: server up',
  'health.headlineDown': 'The panel server "{server}" is down: it has not answered its health checks since {when}.',
  'health.headlineUp': 'The panel server "{server}" is back up: it answered its health check at {when}.',
  'health.effectDown': 'New accounts and purchases skip it until it answers again; its existing customers may not be able to connect.',
  'health.effectUp': 'New accounts and purchases can use it again.',
  'health.lastError': 'Last error: {error}',
  'health.tokenSubject': '{brand}: the API token of {server} ends on {day}',
  'health.tokenHeadline': 'The API token the store uses for the panel server "{server}" ends on {day} ({days, plural, one {# day left} other {# days left}}).',
  'health.tokenEndedHeadline': 'The API token the store uses for the panel server "{server}" ended on {day}.',
  'health.tokenEffect':
    "Without it the store cannot create, renew or read accounts on that panel. Make a new token in the panel (Settings → API tokens) and paste it, with its end date, in the server's form.",
  'health.adminLine': 'Servers in the admin panel: {url}',
  'health.adminButton': 'Open the admin panel',

  // What the payment provider's page shows of the plan being bought (Stripe Checkout, the BTCPay invoice).
  'checkout.renewalProduct': '{plan} (renewal)',
  'checkout.topUpProduct': 'Balance top-up',
  'checkout.topUpDescription': 'Added to your balance once paid, for plans and renewals.',
  'wallet.renewal.shortSubject': '{brand}: top up to renew {account}',
  'wallet.renewal.shortLead': '{account} ({plan}) renews from your balance on {day} for {price}, but your balance is {needed} short.',
  'wallet.renewal.failedSubject': '{brand}: {account} could not be renewed from your balance',
  'wallet.renewal.failedLead':
    'We could not renew {account} ({plan}) from your balance: it is {needed} short of {price}. It ends on {day} unless it is renewed.',
  'wallet.renewal.topUp': 'Top up your balance before {day} and it renews by itself.',
  'wallet.renewal.button': 'Top up your balance',
  'account.deleted.subject': '{brand}: your account has been deleted',
  'account.deleted.lead':
    'Your {brand} account and its VPN accounts have been deleted, as you asked on {day}. Your sign-in address, sessions, devices and Telegram link are gone.',
  'account.deleted.kept':
    'The records of your payments are kept without your name or address for as long as the law requires (tax and accounting), and are then deleted.',
  'account.deleted.notYou': 'If you did not ask for this, reply to this e-mail.',
  'subscriptionLink.movedSubject': '{brand}: a new link for {account}',
  'subscriptionLink.movedLead': 'The link of your VPN account {account} has moved to a new address, so that it keeps working where the old one is blocked.',
  'subscriptionLink.newLink': 'New link',
  'subscriptionLink.whatToDo':
    'Happ moves to it by itself. In other apps, replace the old link with the new one (or scan the QR code on your dashboard); the old link keeps working where it still can be reached.',
  'subscriptionLink.button': 'Open your dashboard',
  'checkout.summary': '{duration} · {data} · {locations}',
  'checkout.hours': '{hours, plural, one {# hour} other {# hours}}',
  'checkout.days': '{days, plural, one {# day} other {# days}}',
  'checkout.allLocations': 'All locations',
} as const;

export type EmailMessageKey = keyof typeof en;
export type EmailCatalogue = Record<EmailMessageKey, string>;
