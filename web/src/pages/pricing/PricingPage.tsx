import { useId, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { buildPricingTable, type PricingPeriod } from '../../../../shared/pricing.js';
import { CardGrid, PageHero, Section, type Card } from '../../components/content';
import { CardIcon, ClockIcon, EyeOffIcon, LaptopIcon, LockIcon } from '../../components/content/content-icons';
import { RefundIcon } from '../../components/icons';
import { Loading } from '../../components/Loading';
import { useAuth } from '../../features/auth/auth-context';
import { useConfig } from '../../features/config/config-context';
import { usePlanCatalog } from '../../features/plans/plan-catalog-context';
import { BillingPeriodToggle } from '../../features/pricing/BillingPeriodToggle';
import { getPlanHref } from '../../features/pricing/plan-links';
import { PricingFaq } from '../../features/pricing/PricingFaq';
import { TierCard } from '../../features/pricing/TierCard';

/** True of every plan, whatever the operator sells (the prices and data are on the cards). */
const EVERY_PLAN: readonly Card[] = [
  { title: 'No connection logs', text: 'We do not record the sites you visit or what you do while connected.', Icon: EyeOffIcon },
  { title: 'All your devices', text: 'One subscription link for Windows, macOS, Linux, Android and iOS, with open-source apps.', Icon: LaptopIcon },
  { title: '30-day money-back guarantee', text: 'Not happy? Ask within 30 days of your purchase for a full refund.', Icon: RefundIcon },
  {
    title: 'No surprise charges',
    text: 'Each plan says whether it renews. Cancel a renewing plan any time from your dashboard; a one-off plan is paid once and never charged again.',
    Icon: ClockIcon,
  },
  { title: 'Anonymous sign-up', text: 'An e-mail address is all we ask for: no name, no phone number, no password.', Icon: LockIcon },
  { title: 'Secure card checkout', text: 'Payments are taken by Stripe. Your card number never reaches our servers.', Icon: CardIcon },
];

export default function PricingPage() {
  return (
    <>
      <PageHero
        eyebrow="Pricing"
        title="Simple, Honest Pricing"
        subtitle="One subscription for all your devices. Every plan says up front whether it renews or is paid once, renewals can be cancelled any time, and every plan comes with a 30-day money-back guarantee."
      />
      <PlansSection />
      <Section title="Included with every plan" tone="muted">
        <CardGrid cards={EVERY_PLAN} columns={3} />
      </Section>
      <Section title="Frequently asked questions" width="narrow">
        <PricingFaq />
      </Section>
      <BusinessOffer />
    </>
  );
}

/** The grid's columns for the number of tier cards, so one or two cards sit centred. */
const GRID_BY_COUNT: Record<number, string> = {
  1: 'mx-auto max-w-md',
  2: 'mx-auto max-w-4xl md:grid-cols-2',
  3: 'lg:grid-cols-3',
};

/**
 * The plans on sale, grouped into tiers, for one period at a time. Every period's cards are in the
 * HTML (the others hidden), so the whole price list is in the page as served.
 */
function PlansSection() {
  const headingId = useId();
  const { user } = useAuth();
  const { plans, failed } = usePlanCatalog();
  const table = useMemo(() => buildPricingTable(plans ?? []), [plans]);
  const [chosen, setChosen] = useState<string | null>(null);
  const current = table.periods.some((period) => period.key === chosen) ? chosen : table.defaultPeriodKey;

  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
      <div className="flex flex-col items-center gap-6 text-center">
        <h2 id={headingId} className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          Choose your plan
        </h2>
        {table.periods.length > 1 && current && (
          <BillingPeriodToggle periods={table.periods} value={current} onChange={setChosen} />
        )}
      </div>
      {plans === null && !failed && <Loading />}
      {plans === null && failed && <Notice>Prices could not be loaded. Please reload the page.</Notice>}
      {plans !== null && table.periods.length === 0 && (
        <Notice>
          No plans are on sale right now. Please check back soon, or <Link to="/contact" className="font-semibold text-indigo-700 underline">contact us</Link>.
        </Notice>
      )}
      {table.periods.map((period) => (
        <PeriodCards key={period.key} period={period} hidden={period.key !== current} signedIn={user !== null} />
      ))}
      {table.periods.length > 0 && (
        <p className="mx-auto mt-8 max-w-2xl text-center text-sm leading-6 text-slate-600">
          Prices in US dollars. A plan marked as renewing is charged again every period until you cancel it; cancel any
          time from your dashboard and it stops at the end of the period you have paid for, with no further charge. A
          one-off plan is paid once and never charged again: when it ends, renew it from your dashboard if you want to
          keep going.
        </p>
      )}
    </section>
  );
}

function PeriodCards({ period, hidden, signedIn }: { period: PricingPeriod; hidden: boolean; signedIn: boolean }) {
  const columns = GRID_BY_COUNT[period.offers.length] ?? 'md:grid-cols-2 xl:grid-cols-4';
  return (
    <ul hidden={hidden} aria-label={`Plans for ${period.label}`} className={`mt-12 grid gap-8 lg:gap-6 ${columns}`}>
      {period.offers.map((offer) => (
        <li key={offer.plan.id}>
          <TierCard offer={offer} period={period} href={getPlanHref(offer.plan.id, signedIn)} />
        </li>
      ))}
    </ul>
  );
}

function Notice({ children }: { children: ReactNode }) {
  return <p className="mx-auto mt-10 max-w-xl rounded-2xl bg-white p-6 text-center text-slate-600 shadow-sm ring-1 ring-slate-200">{children}</p>;
}

function BusinessOffer() {
  const { supportEmail } = useConfig();
  return (
    <Section title="Buying for a team?" tone="muted" width="narrow">
      <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
        <p className="leading-7 text-slate-700">
          We offer business plans for teams of 5 or more. Business purchases have a 14-day refund window and a
          minimum of 5 licenses. Tell us how many people you need to protect and we will put together an offer.
        </p>
        <p className="mt-4 leading-7 text-slate-700">
          Write to{' '}
          <a href={`mailto:${supportEmail}`} className="font-semibold break-words text-indigo-700 underline">
            {supportEmail}
          </a>
          .
        </p>
      </div>
    </Section>
  );
}
