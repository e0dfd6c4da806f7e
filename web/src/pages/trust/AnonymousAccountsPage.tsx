import { Link } from 'react-router-dom';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { useConfig } from '../../features/config/config-context';
import { BUTTON_LINK_CLASS, TEXT_LINK_CLASS } from '../../components/content/links';
import { BanIcon, CheckCircleIcon, KeyIcon, LockIcon, MailIcon } from '../../components/content/content-icons';

const STEPS: readonly Card[] = [
  {
    title: '1. Enter your e-mail',
    text: 'Type any e-mail address you can receive mail at. That is the only thing we ask for: no name, no phone number, no password to remember.',
    Icon: MailIcon,
  },
  {
    title: '2. Verify with a code',
    text: 'We send a 6-digit code to that address. Enter it on the sign-in page to prove the inbox is yours. The same code-based sign-in works every time you come back.',
    Icon: KeyIcon,
  },
  {
    title: '3. Start using the VPN',
    text: 'Your account is ready. Claim the free trial or choose a plan, import your subscription link into the app and connect.',
    Icon: CheckCircleIcon,
  },
];

const NOT_ASKED: readonly string[] = [
  'Your name',
  'Your phone number',
  'Your postal address or date of birth',
  'A password (there is none to leak)',
  'A credit card for the free trial',
];

const TIPS: readonly Card[] = [
  {
    title: 'Use a dedicated address',
    text: 'An e-mail alias or a separate address from a privacy-focused mail provider keeps your VPN account apart from the rest of your online life.',
    Icon: LockIcon,
  },
  {
    title: 'Keep access to the inbox',
    text: 'Since there is no password, your inbox is the key to your account. If you lose access to it, you lose the easy way to sign in.',
    Icon: MailIcon,
  },
  {
    title: 'Nothing to reuse',
    text: 'Without passwords there is nothing to be reused across sites or stolen in a breach, and no security question to guess.',
    Icon: BanIcon,
  },
];

export default function AnonymousAccountsPage() {
  const { brandName } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Why trust us"
        title="Anonymous Accounts"
        subtitle={`The less we know about you, the less there is to protect. A ${brandName} account needs nothing but an e-mail address.`}
      >
        <Link
          to="/login"
          className="inline-block rounded-lg bg-white px-6 py-3 font-semibold text-indigo-900 shadow hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          Create your account
        </Link>
      </PageHero>

      <Section title="Three steps, about a minute" intro="There is no sign-up form. Signing in for the first time creates your account.">
        <CardGrid cards={STEPS} />
      </Section>

      <Section tone="muted" width="narrow" title="What we never ask for">
        <ul className="list-disc space-y-2 pl-6 leading-7 text-slate-700">
          {NOT_ASKED.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
        <p className="mt-6 leading-7 text-slate-700">
          When you buy a plan, the card payment is handled by Stripe: we never see your card number. Read more about{' '}
          <Link to="/why-trust-us/crypto-payment" className={TEXT_LINK_CLASS}>private payments</Link>, and about
          what we keep, in our <Link to="/privacy" className={TEXT_LINK_CLASS}>Privacy Policy</Link>.
        </p>
      </Section>

      <Section title="Tips for staying anonymous">
        <CardGrid cards={TIPS} />
        <p className="mt-8">
          <Link to="/login" className={BUTTON_LINK_CLASS}>Sign in with your e-mail</Link>
        </p>
      </Section>

      <CallToAction />
    </>
  );
}
