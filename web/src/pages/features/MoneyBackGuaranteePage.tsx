import { Link } from 'react-router-dom';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { RefundIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import { BUTTON_LINK_CLASS, EmailLink, TEXT_LINK_CLASS } from '../../components/content/links';
import { CardIcon, CheckCircleIcon, ClockIcon } from '../../components/content/content-icons';

const PROMISES: readonly Card[] = [
  {
    title: '30 days to decide',
    text: 'Use the service for up to 30 days after your purchase. If it is not right for you, ask for your money back.',
    Icon: ClockIcon,
  },
  {
    title: 'A full refund',
    text: 'You get back the full amount you paid for the plan, not a pro-rated share or store credit.',
    Icon: RefundIcon,
  },
  {
    title: 'No questions asked',
    text: 'You do not have to explain why. If you want to tell us, we will gladly listen, but it never affects your refund.',
    Icon: CheckCircleIcon,
  },
  {
    title: 'Back to your card',
    text: 'Refunds go to the card you paid with, through our payment processor Stripe. No forms, no bank details needed.',
    Icon: CardIcon,
  },
];

export default function MoneyBackGuaranteePage() {
  const { brandName, supportEmail } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Features"
        title="30-Day Money-Back Guarantee"
        subtitle={`Try ${brandName} without risk. If you are not happy for any reason, get a full refund within 30 days of your purchase.`}
      />

      <Section title="Our promise">
        <CardGrid cards={PROMISES} columns={4} />
      </Section>

      <Section tone="muted" width="narrow" title="How to ask for a refund">
        <ol className="list-decimal space-y-4 pl-6 leading-7 text-slate-700">
          <li>
            Send an e-mail to <EmailLink email={supportEmail} subject="Refund request" /> within 30 days of your
            purchase.
          </li>
          <li>
            Write from, or mention, the e-mail address you sign in with, so we can find your purchase. The date of
            purchase helps if you have made more than one.
          </li>
          <li>
            We confirm the refund by e-mail and close the VPN account that came with the purchase. The money goes
            back to your card; banks usually take 5 to 10 business days to show it on your statement.
          </li>
        </ol>
      </Section>

      <Section width="narrow" title="The details">
        <div className="space-y-8 leading-7 text-slate-700">
          <div>
            <h3 className="text-lg font-semibold text-slate-900">Personal plans</h3>
            <p className="mt-2">
              Every personal plan, whatever its length, is covered for 30 days from the date of purchase. A plan that
              renews automatically can be cancelled at any time from your dashboard: it then runs to the end of the
              period you have paid for and is not charged again. A one-off plan is paid once and never charged again:
              when it ends, you decide whether to renew it from your dashboard.
            </p>
          </div>
          <div>
            <h3 className="text-lg font-semibold text-slate-900">Business customers</h3>
            <p className="mt-2">
              Business orders have a 14-day refund window and a minimum of 5 licenses per order. Write to us from the
              address used for the order and tell us which order it is.
            </p>
          </div>
          <div>
            <h3 className="text-lg font-semibold text-slate-900">Free trial</h3>
            <p className="mt-2">
              The free trial needs no card and costs nothing, so there is nothing to refund. It is the easiest way to
              check the speed and the locations before you buy.
            </p>
          </div>
          <p>
            The full rules are in our <Link to="/terms" className={TEXT_LINK_CLASS}>Terms of Service</Link>.
          </p>
          <p>
            <Link to="/pricing" className={BUTTON_LINK_CLASS}>Choose a plan</Link>
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
