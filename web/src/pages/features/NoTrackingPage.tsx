import { Link } from 'react-router-dom';
import { CallToAction, CardGrid, PageHero, Section, type Card } from '../../components/content';
import { UserIcon } from '../../components/icons';
import { useConfig } from '../../features/config/config-context';
import { TEXT_LINK_CLASS } from '../../components/content/links';
import { BanIcon, EyeOffIcon } from '../../components/content/content-icons';

const PROMISES: readonly Card[] = [
  {
    title: 'No connection logs',
    text: 'We do not record your IP address, when you connect or disconnect, which server you use, or which sites you visit.',
    Icon: EyeOffIcon,
  },
  {
    title: 'No sale of data',
    text: 'We do not sell, rent or share information about you with advertisers, data brokers or anyone else. Ever.',
    Icon: BanIcon,
  },
  {
    title: 'No personal information',
    text: 'An e-mail address is all it takes to sign up. No name, no phone number, no postal address, no password.',
    Icon: UserIcon,
  },
];

const NOT_RECORDED: readonly string[] = [
  'Your real IP address while connected',
  'Connection and disconnection times',
  'The websites, apps and services you use',
  'Your DNS queries',
  'The content of your traffic',
];

const RECORDED: readonly { item: string; why: string }[] = [
  { item: 'Your e-mail address', why: 'so you can sign in with a one-time code and we can reach you about your account.' },
  { item: 'Your VPN accounts and plans', why: 'their status, expiry date and data limit, so the service knows what you have paid for.' },
  {
    item: 'A running total of data used',
    why: 'a single number per account, needed to apply your plan’s data limit. It says how much, never where.',
  },
  {
    item: 'Payment records',
    why: 'the amount, date and status of each payment. Card details are handled by Stripe and never reach us.',
  },
];

export default function NoTrackingPage() {
  const { brandName } = useConfig();
  return (
    <>
      <PageHero
        eyebrow="Features"
        title="No User Tracking"
        subtitle={`A VPN should protect your privacy, not become a new way to watch you. ${brandName} keeps no logs of what you do online.`}
      />

      <Section title="Three promises we keep">
        <CardGrid cards={PROMISES} />
      </Section>

      <Section tone="muted" title="What we keep, and what we don't" intro="Being specific is the only honest way to talk about logs.">
        <div className="grid gap-6 lg:grid-cols-2">
          <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <h3 className="text-lg font-semibold text-slate-900">Never recorded</h3>
            <ul className="mt-4 list-disc space-y-2 pl-6 leading-7 text-slate-700">
              {NOT_RECORDED.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
          <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <h3 className="text-lg font-semibold text-slate-900">Kept to run your account</h3>
            <ul className="mt-4 list-disc space-y-2 pl-6 leading-7 text-slate-700">
              {RECORDED.map(({ item, why }) => (
                <li key={item}>
                  <strong className="font-semibold text-slate-900">{item}</strong>: {why}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </Section>

      <Section width="narrow" title="Why this matters">
        <div className="space-y-4 leading-7 text-slate-700">
          <p>
            Data that is never collected cannot be leaked, stolen, sold or handed over. That is why we decided early on
            not to keep connection logs at all, rather than to keep them and promise to look after them.
          </p>
          <p>
            The software our service runs on is public, so you do not have to take this on trust: see{' '}
            <Link to="/why-trust-us/open-source" className={TEXT_LINK_CLASS}>our open-source page</Link>. The full
            details of what we process, for how long and on what legal basis are in our{' '}
            <Link to="/privacy" className={TEXT_LINK_CLASS}>Privacy Policy</Link>, and our website uses only the
            essential cookies listed in the <Link to="/cookies" className={TEXT_LINK_CLASS}>Cookie Policy</Link>.
          </p>
          <p>
            Want to give away even less? Read how{' '}
            <Link to="/why-trust-us/anonymous-accounts" className={TEXT_LINK_CLASS}>anonymous accounts</Link> work.
          </p>
        </div>
      </Section>

      <CallToAction />
    </>
  );
}
