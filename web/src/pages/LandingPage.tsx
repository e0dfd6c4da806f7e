import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router-dom';
import { withLocations } from '../../../shared/config.js';
import type { Plan } from '../../../shared/plans.js';
import { formatUsd, isListedPublicly, lowestMonthlyPrice } from '../../../shared/pricing.js';
import { BoltIcon, CodeIcon, DevicesIcon, GlobeIcon, RefundIcon, UserIcon } from '../components/icons';
import { OtpSignInForm } from '../features/auth/OtpSignInForm';
import { useAuth } from '../features/auth/auth-context';
import { useConfig } from '../features/config/config-context';
import { usePlanCatalog } from '../features/plans/plan-catalog-context';

interface Belief {
  title: string;
  text: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
}

const BELIEFS: readonly Belief[] = [
  {
    title: 'Transparent',
    text: 'Our code is open for anyone to inspect, so you never have to take our word for it.',
    Icon: CodeIcon,
  },
  {
    title: 'Everywhere',
    text: 'Connect through servers in {locations} locations around the world, and switch between them as often as you like.',
    Icon: GlobeIcon,
  },
  {
    title: 'Every device',
    text: 'One subscription covers every phone, laptop, desktop and tablet you own.',
    Icon: DevicesIcon,
  },
  {
    title: 'Risk-free',
    text: 'Not happy? Every plan comes with a 30-day money-back guarantee.',
    Icon: RefundIcon,
  },
  {
    title: 'Fast',
    text: 'Performance is optimized for your location, so your connection stays quick and stable.',
    Icon: BoltIcon,
  },
  {
    title: 'Anonymous',
    text: 'All you need is an e-mail address. No name, no phone number, no personal information.',
    Icon: UserIcon,
  },
];

export default function LandingPage() {
  const { locationsClaim } = useConfig();
  return (
    <>
      <section className="bg-gradient-to-b from-indigo-950 via-indigo-900 to-indigo-800 text-white">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-2">
          <div>
            <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl lg:text-6xl">We&apos;re what we believe!</h1>
            <p className="mt-6 max-w-xl text-lg leading-8 text-indigo-100">
              Your privacy is a right, not a feature. We keep no connection logs, never track what you do and never
              sell your data.
            </p>
            <ul className="mt-8 flex flex-wrap gap-3 text-sm text-indigo-100">
              <li className="rounded-full bg-white/10 px-3 py-1 ring-1 ring-white/20">Free trial, no credit card</li>
              <li className="rounded-full bg-white/10 px-3 py-1 ring-1 ring-white/20">Only an e-mail needed</li>
              <li className="rounded-full bg-white/10 px-3 py-1 ring-1 ring-white/20">No connection logs</li>
            </ul>
            <StartingPrice />
          </div>
          <SignUpBlock />
        </div>
      </section>

      <section aria-labelledby="beliefs-heading" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-24">
        <h2 id="beliefs-heading" className="text-center text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          We believe VPNs should be:
        </h2>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {BELIEFS.map(({ title, text, Icon }) => (
            <li key={title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
                <Icon className="size-6" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 leading-7 text-slate-600">{withLocations(text, locationsClaim)}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

/**
 * How the plans on sale are paid, when they all agree: ', paid once, no auto-renewal.' or ', cancel any
 * time.'; a plain '.' when some renew and some do not (each plan says which on the pricing page).
 */
function billingNote(plans: readonly Plan[]): string {
  const billings = new Set(plans.filter((plan) => isListedPublicly(plan) && plan.price > 0).map((plan) => plan.billing));
  if (billings.size !== 1) return '.';
  return billings.has('recurring') ? ', cancel any time.' : ', paid once, no auto\u2011renewal.';
}

/** "Plans from $X/month", from the plans on sale (the server renders this page with them). */
function StartingPrice() {
  const { plans } = usePlanCatalog();
  const cents = plans && lowestMonthlyPrice(plans);
  if (!plans || !cents) return null;
  return (
    <p className="mt-8 text-indigo-100">
      Plans from <span className="text-2xl font-bold text-white">{formatUsd(cents)}</span>/month{billingNote(plans)}{' '}
      <Link to="/pricing" className="font-semibold whitespace-nowrap text-white underline decoration-indigo-300 underline-offset-4 hover:decoration-white">
        See pricing<span aria-hidden="true"> →</span>
      </Link>
    </p>
  );
}

function SignUpBlock() {
  // While the session loads this shows the sign-up form, as the prerendered page does.
  const { user } = useAuth();

  return (
    <div id="get-started" className="w-full rounded-2xl bg-white p-6 text-slate-900 shadow-2xl sm:p-8 lg:justify-self-end lg:max-w-md">
      {user ? (
        <div className="text-center">
          <h2 className="text-2xl font-bold break-words">Welcome back, {user.email}!</h2>
          <p className="mt-3 text-slate-600">Ready to set up your secure VPN connection?</p>
          <Link
            to="/dashboard"
            className="mt-6 inline-block rounded-lg bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-700"
          >
            Create Your VPN Account
          </Link>
        </div>
      ) : (
        <>
          <h2 className="text-2xl font-bold">Start your free trial</h2>
          <p className="mt-2 mb-6 text-slate-600">
            Enter your e-mail and we&apos;ll send you a 6-digit code. No password, no credit card.
          </p>
          <OtpSignInForm backLabel="Back" />
        </>
      )}
    </div>
  );
}
