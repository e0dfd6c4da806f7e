import { Trans, useLingui } from '@lingui/react';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router-dom';
import type { Plan } from '../../../shared/plans.js';
import { isListedPublicly, lowestMonthlyPrice } from '../../../shared/plan-months.js';
import { BoltIcon, CodeIcon, DevicesIcon, GlobeIcon, RefundIcon, UserIcon } from '../components/icons';
import { OtpSignInForm } from '../features/auth/OtpSignInForm';
import { InvitationNotice } from '../features/billing/InvitationNotice';
import { useAuth } from '../features/auth/auth-context';
import { useLocationsClaim } from '../features/config/config-context';
import { useStoreMoney } from '../features/config/useStoreMoney';
import { usePlanCatalog } from '../features/plans/plan-catalog-context';
import { TRIAL_DASHBOARD_PATH } from '../features/pricing/trial-request';
import { useIsolate } from '../i18n/bidi';
import { customerName } from '../components/header/customer-name';
import { TrialClaim } from '../components/content/TrialClaim';

/** A belief's title and text as message ids (landing namespace); the text may name `{locations}`. */
interface Belief {
  titleId: string;
  textId: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
}

const BELIEFS: readonly Belief[] = [
  {
    titleId: 'landing.beliefs.transparent.title',
    textId: 'landing.beliefs.transparent.text',
    Icon: CodeIcon,
  },
  {
    titleId: 'landing.beliefs.everywhere.title',
    textId: 'landing.beliefs.everywhere.text',
    Icon: GlobeIcon,
  },
  {
    titleId: 'landing.beliefs.devices.title',
    textId: 'landing.beliefs.devices.text',
    Icon: DevicesIcon,
  },
  {
    titleId: 'landing.beliefs.riskFree.title',
    textId: 'landing.beliefs.riskFree.text',
    Icon: RefundIcon,
  },
  {
    titleId: 'landing.beliefs.fast.title',
    textId: 'landing.beliefs.fast.text',
    Icon: BoltIcon,
  },
  {
    titleId: 'landing.beliefs.anonymous.title',
    textId: 'landing.beliefs.anonymous.text',
    Icon: UserIcon,
  },
];

export default function LandingPage() {
  const { _ } = useLingui();
  const locationsClaim = useLocationsClaim();
  return (
    <>
      <section className="bg-gradient-to-b from-indigo-950 via-indigo-900 to-indigo-800 text-white">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-2">
          <div>
            <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl lg:text-6xl">{_('landing.hero.title')}</h1>
            <p className="mt-6 max-w-xl text-lg leading-8 text-indigo-100">{_('landing.hero.text')}</p>
            <ul className="mt-8 flex flex-wrap gap-3 text-sm text-indigo-100">
              {/* Only while the store has a trial to promise (site flags, styles.css). */}
              <li data-claim="trial" className="rounded-full bg-white/10 px-3 py-1 ring-1 ring-white/20">
                {_('landing.hero.freeTrial')}
              </li>
              <li className="rounded-full bg-white/10 px-3 py-1 ring-1 ring-white/20">{_('landing.hero.emailOnly')}</li>
              <li className="rounded-full bg-white/10 px-3 py-1 ring-1 ring-white/20">{_('landing.hero.noLogs')}</li>
            </ul>
            <StartingPrice />
          </div>
          <SignUpBlock />
        </div>
      </section>

      <section aria-labelledby="beliefs-heading" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-24">
        <h2 id="beliefs-heading" className="text-center text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {_('landing.beliefs.heading')}
        </h2>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {BELIEFS.map(({ titleId, textId, Icon }) => (
            <li key={titleId} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
                <Icon className="size-6" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{_(titleId)}</h3>
              <p className="mt-2 leading-7 text-slate-600">{_(textId, { locations: locationsClaim })}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

/**
 * The "Plans from $X/month" message for how the plans on sale are paid, when they all agree: '…, paid
 * once, no auto-renewal.' or '…, cancel any time.'; a plain '.' when some renew and some do not (each
 * plan says which on the pricing page).
 */
function startingPriceId(plans: readonly Plan[]): string {
  const billings = new Set(plans.filter((plan) => isListedPublicly(plan) && plan.price > 0).map((plan) => plan.billing));
  if (billings.size !== 1) return 'landing.price.mixed';
  return billings.has('recurring') ? 'landing.price.recurring' : 'landing.price.oneOff';
}

/** "Plans from $X/month", from the plans on sale (the server renders this page with them). */
function StartingPrice() {
  const money = useStoreMoney();
  const { plans } = usePlanCatalog();
  const lowest = plans && lowestMonthlyPrice(plans);
  if (!plans || !lowest) return null;
  return (
    <p className="mt-8 text-indigo-100">
      <Trans id={startingPriceId(plans)} values={{ price: money(lowest) }} components={{ 0: <span className="text-2xl font-bold text-white" /> }} />{' '}
      <Link to="/pricing" className="font-semibold whitespace-nowrap text-white underline decoration-indigo-300 underline-offset-4 hover:decoration-white">
        <Trans id="landing.price.seePricing" components={{ 0: <span aria-hidden="true" /> }} />
      </Link>
    </p>
  );
}

function SignUpBlock() {
  // While the session loads this shows the sign-up form, as the prerendered page does.
  const { _ } = useLingui();
  const { user } = useAuth();
  const isolated = useIsolate();

  return (
    <div id="get-started" className="w-full rounded-2xl bg-white p-6 text-slate-900 shadow-2xl sm:p-8 lg:justify-self-end lg:max-w-md">
      {/* A visitor who came through a friend's referral link is told so, with what it gives them. */}
      <InvitationNotice className="mb-5" />
      {user ? (
        <div className="text-center">
          <h2 className="text-2xl font-bold break-words">{_('landing.welcome.title', { email: isolated(customerName(user, _)) })}</h2>
          <p className="mt-3 text-slate-600">{_('landing.welcome.text')}</p>
          <Link to="/dashboard" className="mt-6 inline-block rounded-lg bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-700">
            {_('landing.welcome.createAccount')}
          </Link>
        </div>
      ) : (
        <>
          <h2 className="text-2xl font-bold">
            <TrialClaim trial={_('landing.signUp.title')} otherwise={_('landing.signUp.titleNoTrial')} />
          </h2>
          <p className="mt-2 mb-6 text-slate-600">{_('landing.signUp.text')}</p>
          {/* The free-trial box: signing in here ends with the trial claimed and its setup open (or the plans, when it was used). */}
          <OtpSignInForm backLabel={_('landing.signUp.back')} next={TRIAL_DASHBOARD_PATH} />
        </>
      )}
    </div>
  );
}
