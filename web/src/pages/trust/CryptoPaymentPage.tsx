import { Link } from 'react-router-dom';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { EmailLink, TEXT_LINK_CLASS } from '../../components/content/links';
import { CardIcon, CoinIcon, LockIcon, MailIcon } from '../../components/content/content-icons';

const TODAY: readonly Card[] = [
  {
    title: 'Card payments through Stripe',
    text: 'You pay on a secure checkout page run by Stripe, a certified payment processor. Your card number goes straight to Stripe.',
    Icon: CardIcon,
  },
  {
    title: 'We never see your card',
    text: 'We never see or store your card number, expiry date or security code. We only receive the result: paid or not paid.',
    Icon: LockIcon,
  },
  {
    title: 'Only an e-mail needed',
    text: 'Your account is tied to your e-mail address alone. We do not ask for your name or billing address to create it.',
    Icon: MailIcon,
  },
];

export default function CryptoPaymentPage() {
  const { brandName, supportEmail } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Why trust us"
        title="Private Payments"
        subtitle={`Paying for privacy should not cost you your privacy. Here is exactly how payments work at ${brandName} today, and what is coming.`}
      />

      <Section
        title="How you pay today"
        intro={
          <>
            <span data-unless="crypto">Every plan is paid by card, in US dollars.</span>
            <span data-claim="crypto">Every plan is priced in US dollars, and paid by card or in cryptocurrency.</span>
          </>
        }
      >
        <CardGrid cards={TODAY} />
        <p className="mt-8 max-w-3xl leading-7 text-slate-600">
          To be clear about the limits: your bank and Stripe do see the payment, as they would for any card purchase,
          and Stripe may ask for details such as a postal code to prevent fraud. What they never see is what you do
          with the VPN, and what we never see is your card.
        </p>
      </Section>

      <Section tone="muted" width="narrow" title="Cryptocurrency payments">
        <div className="flex gap-4">
          <span className="inline-flex size-11 shrink-0 items-center justify-center rounded-xl bg-indigo-100 text-indigo-700">
            <CoinIcon className="size-6" />
          </span>
          <div className="space-y-4 leading-7 text-slate-700" data-claim="crypto">
            <p>
              <strong className="font-semibold text-slate-900">You can pay in cryptocurrency.</strong> Choose &quot;Pay with
              crypto&quot; when you buy or renew a plan: the payment goes to our own BTCPay Server, an open-source payment
              server we run ourselves, so no payment company sees it or you. Your account is ready as soon as the network
              confirms the payment.
            </p>
            <p>
              A crypto payment is one-off: it does not renew by itself. If we ever refund one, you claim it to a wallet of
              your choice from a link we e-mail you.
            </p>
          </div>
          <div className="space-y-4 leading-7 text-slate-700" data-unless="crypto">
            <p>
              <strong className="font-semibold text-slate-900">Cryptocurrency payments are not available yet.</strong>{' '}
              They are planned, because we know many privacy-minded people prefer to pay that way. We will announce them
              on this page when they are ready; until then, the only way to buy a plan is by card.
            </p>
            <p>
              If paying in cryptocurrency matters to you, tell us at{' '}
              <EmailLink email={supportEmail} subject="Cryptocurrency payments" />. Hearing which coins people want helps
              us decide what to support first.
            </p>
          </div>
        </div>
      </Section>

      <Section width="narrow" title="Want to pay nothing at all?">
        <div className="space-y-4 leading-7 text-slate-700">
          <p>
            The free trial needs no card and no payment of any kind: just your e-mail address. If you then decide to
            buy, every plan comes with a{' '}
            <Link to="/features/money-back-guarantee" className={TEXT_LINK_CLASS}>30-day money-back guarantee</Link>.
          </p>
          <p>
            Compare plans on the <Link to="/pricing" className={TEXT_LINK_CLASS}>pricing page</Link>, or read how{' '}
            <Link to="/why-trust-us/anonymous-accounts" className={TEXT_LINK_CLASS}>anonymous accounts</Link> keep your
            sign-up down to a single e-mail address.
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
